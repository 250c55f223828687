import type { Embeddings } from '@langchain/core/embeddings';
import { agnes } from 'ml-hclust';
import { EMERGENT_VOCABULARY } from '../src/clinical-text/concepts/tiers.js';
import { NO_FINDING_ALONE } from '../src/clinical-text/concepts/emergent-phrases.js';
import type { FeatureProto } from './scan-records.js';
import { dot, embedAll } from './vectors.js';

/**
 * Emergent concepts (issue 24): the phrases of notes that no vocabulary read, grouped across the
 * corpus. Candidates (src/clinical-text/concepts/emergent-phrases.ts) that enough patients share are embedded
 * and clustered (ml-hclust, average linkage on cosine distance), so "tender RLQ" and "RLQ
 * tenderness" become one concept named by its most shared phrase. A concept is kept only when
 * at least `minPatients` records show it, and only phrases that many records show are stored as
 * its forms: no rare phrase that could point at one patient reaches the KG.
 */
export interface EmergentOptions {
  /** k: records a concept, and each stored phrase of it, must have been seen in. */
  minPatients: number;
  /** Candidates at least this cosine-similar may share a concept. */
  mergeSimilarity: number;
  /** Clustering is quadratic: beyond this many candidates (most shared first) the rest stay alone. */
  maxClustered: number;
  /**
   * Records a vocabulary concept read from notes (HPO, DDXPlus) must be seen in: a concept of one
   * note is that note's noise, not knowledge of the disease. Not a privacy bound (the concept's
   * name is the vocabulary's, not the note's), so lower than k.
   */
  minVocabularyPatients: number;
}

export const DEFAULT_EMERGENT_OPTIONS: EmergentOptions = { minPatients: 5, mergeSimilarity: 0.9, maxClustered: 1000, minVocabularyPatients: 2 };

export interface EmergentInput {
  /** Candidate feature key ("e:<stems>") → records showing it. */
  support: ReadonlyMap<string, number>;
  protos: ReadonlyMap<string, FeatureProto>;
  embeddings: Embeddings;
}

export interface EmergentConcepts {
  /** Candidate key → the key of its concept, or null when the concept was not kept. */
  canonical: Map<string, string | null>;
  /** Kept concepts' feature protos (vocabulary "emergent", named, with their forms). */
  protos: Map<string, FeatureProto>;
  candidates: number;
  kept: number;
}

export const isEmergentKey = (key: string): boolean => key.startsWith('e:');

export async function emergentConcepts(input: EmergentInput, options: Partial<EmergentOptions> = {}): Promise<EmergentConcepts> {
  const opts = { ...DEFAULT_EMERGENT_OPTIONS, ...options };
  const keys = [...input.support.keys()].filter(isEmergentKey);
  const canonical = new Map<string, string | null>(keys.map((k) => [k, null]));
  // Below k a phrase can join no concept: it could identify a patient, and is noise anyway.
  const shared = keys.filter((k) => input.support.get(k)! >= opts.minPatients && !namesNoFinding(input.protos.get(k))).sort((a, b) => input.support.get(b)! - input.support.get(a)! || a.localeCompare(b));
  const groups = await cluster(shared.slice(0, opts.maxClustered), input, opts.mergeSimilarity);
  for (const k of shared.slice(opts.maxClustered)) groups.push([k]);
  const protos = new Map<string, FeatureProto>();
  for (const members of groups) {
    // The most shared member names the concept (ties: the shorter, then alphabetical key).
    const rep = [...members].sort((a, b) => input.support.get(b)! - input.support.get(a)! || a.length - b.length || a.localeCompare(b))[0]!;
    const surface = (k: string) => input.protos.get(k)!.forms?.[0] ?? input.protos.get(k)!.text;
    protos.set(rep, { ...input.protos.get(rep)!, text: surface(rep), vocabulary: EMERGENT_VOCABULARY, forms: members.map(surface) });
    for (const m of members) canonical.set(m, rep);
  }
  return { canonical, protos, candidates: keys.length, kept: protos.size };
}

/** A one-word candidate that only qualifies a finding (emergent-phrases.ts NO_FINDING_ALONE). */
const namesNoFinding = (p: FeatureProto | undefined): boolean => p !== undefined && NO_FINDING_ALONE.has(p.forms?.[0] ?? p.text);

async function cluster(keys: string[], input: EmergentInput, minSim: number): Promise<string[][]> {
  if (keys.length < 2 || minSim > 1) return keys.map((k) => [k]);
  const vecs = await embedAll(input.embeddings, keys.map((k) => input.protos.get(k)!.forms?.[0] ?? input.protos.get(k)!.text));
  // A relative's phrase ("fh breast cancer") never joins the patient's concept, however alike.
  const relative = keys.map((k) => k.startsWith('e:fh '));
  const dist = keys.map((_, i) => keys.map((__, j) => (i === j ? 0 : relative[i] !== relative[j] ? 1 : Math.max(0, 1 - dot(vecs[i]!, vecs[j]!)))));
  const tree = agnes(dist, { method: 'average', isDistanceMatrix: true });
  return tree.cut(1 - minSim).map((c) => c.indices().map((i) => keys[i]!));
}
