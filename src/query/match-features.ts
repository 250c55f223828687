import type { VectorHit, VectorIndexLike } from '../adapters/faiss/types.js';
import type { FeatureMatch, InputFinding } from './contracts.js';
import { codeKey, type KgSnapshot } from './kg-snapshot.js';
import { embedBatch, type TextEmbedder } from './embed.js';
import { featureMatrixFor, rememberFeatureMatrix } from './feature-matrix.js';
import { PhraseMatchCache, phraseCacheFor } from './phrase-match-cache.js';
import { matchConcepts } from '../clinical-text/concepts/match-concepts.js';
import type { ConceptLexicon } from '../clinical-text/concepts/types.js';
import type { PhraseEmbedder } from '../clinical-text/concepts/embed-forms.js';

/**
 * Clinical features matching (MedRAG eq. 9-11): each finding's top-m feature nodes by
 * cosine similarity, kept only when sim > t_matching (eq. 10's indicator δ). Coded
 * findings (DDXPlus E_55 / V_89) match their feature node exactly with similarity 1 and
 * skip the embedder. Free-text findings go through the concept layer first (src/clinical-text/concepts:
 * lexicon and label surface forms, assertion-aware); the embedder decides only where no concept
 * was recognised, or where a finding is a near-verbatim feature text (a DDXPlus rendering).
 * Phrases matched before come from a per-index memo (phrase-match-cache.ts); the rest take one
 * embedder call and one batched index search per query.
 */
export interface MatchFeaturesInput {
  findings: InputFinding[];
  topM: number;
  threshold: number;
  /** The request text the findings' clause spans point into. */
  text?: string | null;
}

export interface MatchFeaturesDeps {
  snapshot: KgSnapshot;
  embedder: TextEmbedder;
  featureIndex: VectorIndexLike;
  /** Reviewed surface forms (the shipped DDXPlus lexicon); null: forms from feature labels only. */
  lexicon?: ConceptLexicon | null;
  /**
   * The concept layer's embedding fallback (nearest concept form, src/clinical-text/concepts/embed-forms.ts).
   * With it, the feature-index search below only keeps verbatim feature texts: short phrases
   * against whole question sentences matched "ear pain" to "pain character: haunting".
   */
  phraseEmbedder?: PhraseEmbedder | null;
}

/** An embedding this close to a feature's own text is that feature verbatim (a rendering of it). */
const VERBATIM = 0.9;

export interface MatchFeaturesOutput {
  matches: FeatureMatch[];
  /** Findings that matched no feature node above the threshold. */
  unmatched: number[];
}

export async function matchFeatures(deps: MatchFeaturesDeps, input: MatchFeaturesInput): Promise<MatchFeaturesOutput> {
  const { snapshot } = deps;
  const matches: FeatureMatch[] = [];
  const toEmbed: number[] = [];
  input.findings.forEach((f, i) => {
    const exact = f.code ? snapshot.featureByCode.get(codeKey(f.code, f.valueCode)) : undefined;
    if (exact !== undefined) {
      const node = snapshot.features[exact]!;
      matches.push({ findingIndex: i, featureId: node.id, featureText: node.text, similarity: 1, polarity: f.polarity, via: 'code' });
    } else if (/[a-z]/i.test(f.text) && !/^E_\d+/.test(f.text)) {
      toEmbed.push(i);
    }
  });

  const hitsOf = await featureIndexHits(deps, input, toEmbed);
  // A finding that is a feature's own text (a rendering) needs no concept reading: the costly
  // part of matching free text is skipped for records sent as text.
  // Not a measured finding: it takes no nearest feature below, so the concept layer must read it.
  const verbatim = new Set(toEmbed.filter((fi) => !input.findings[fi]!.measured && (hitsOf.get(fi)?.[0]?.score ?? 0) >= VERBATIM));
  const only = new Set(toEmbed.filter((fi) => !verbatim.has(fi)));
  const concepts = only.size > 0 ? matchConcepts({ snapshot, lexicon: deps.lexicon ?? null, phraseEmbedder: deps.phraseEmbedder ?? null }, { findings: input.findings, text: input.text ?? null, only }) : new Map<number, FeatureMatch[]>();
  const floor = deps.phraseEmbedder ? Math.max(input.threshold, VERBATIM) : input.threshold;
  for (const fi of toEmbed) {
    const viaConcepts = concepts.get(fi); // never a verbatim finding's: those were not read
    if (viaConcepts) {
      matches.push(...viaConcepts);
      continue;
    }
    // A measured finding is a vocabulary term (InputFinding.measured): no nearest feature stands in for it.
    const fuzzy = input.findings[fi]!.measured ? [] : (hitsOf.get(fi) ?? []);
    for (const hit of fuzzy) {
      if (!(hit.score > input.threshold) || hit.score < floor) continue;
      const idx = snapshot.featureIndex.get(hit.id);
      if (idx === undefined) continue; // index row for a feature the KG no longer has
      const node = snapshot.features[idx]!;
      matches.push({ findingIndex: fi, featureId: node.id, featureText: node.text, similarity: hit.score, polarity: input.findings[fi]!.polarity, via: 'embedding' });
    }
  }

  matches.sort((a, b) => a.findingIndex - b.findingIndex || b.similarity - a.similarity);
  const matched = new Set(matches.map((m) => m.findingIndex));
  return { matches, unmatched: input.findings.map((_, i) => i).filter((i) => !matched.has(i)) };
}

/** Each finding's top-m feature-index hits (memoised per phrase); none when matching by index is off. */
async function featureIndexHits(deps: MatchFeaturesDeps, input: MatchFeaturesInput, toEmbed: number[]): Promise<Map<number, VectorHit[]>> {
  const hitsOf = new Map<number, VectorHit[]>();
  if (toEmbed.length === 0 || input.topM <= 0 || deps.featureIndex.size === 0) return hitsOf;
  const k = Math.min(input.topM, deps.featureIndex.size);
  const cache = phraseCacheFor(deps.featureIndex);
  const keyOf = (fi: number) => PhraseMatchCache.key(deps.embedder.id, k, input.findings[fi]!.text);
  const misses: number[] = [];
  for (const fi of toEmbed) {
    const cached = cache.get(keyOf(fi));
    if (cached) hitsOf.set(fi, cached);
    else misses.push(fi);
  }
  if (misses.length > 0) {
    // Same exact top-m as the FAISS flat index, on the sparse hashed vectors (feature-matrix.ts);
    // its feature vectors are embedded once, in the first query's embedder call.
    const plan = featureMatrixFor(deps.snapshot, deps.embedder);
    const extra = plan && 'texts' in plan ? plan.texts : [];
    const all = await embedBatch(deps.embedder, [...misses.map((i) => input.findings[i]!.text), ...extra]);
    const vectors = all.slice(0, misses.length);
    const index = !plan ? deps.featureIndex : 'matrix' in plan ? plan.matrix : rememberFeatureMatrix(deps.snapshot, all.slice(misses.length), deps.featureIndex);
    const found = index.searchMany(vectors, k);
    misses.forEach((fi, row) => {
      const hits = found[row] ?? [];
      hitsOf.set(fi, hits);
      cache.set(keyOf(fi), hits);
    });
  }
  return hitsOf;
}
