import type { ManifestationEdge } from '../domain/kg.js';
import { buildSnapshot, type KgSnapshot } from '../query/kg-snapshot.js';
import { nbTables, type NbParams } from './scoring-naive-bayes.js';

/**
 * The text view of a KG whose diseases are partly coded records and partly notes (issue 24; not
 * a MedRAG formula). A coded record answers every question ("pain somewhere: yes" in nearly all
 * of a disease's records); a note names what struck its writer. A description written as text is
 * a note, so it is read against how each such disease's notes speak of a feature, shrunk towards
 * the coded rate as if that rate were m more notes:
 *
 *   p_text(f|d) = (c_notes(f,d) + m·p_coded(f|d) + α_notes) / (n_notes(d) + m + 2·α_notes)
 *
 * with c_notes the NOTES_MENTION count, n_notes = DiseaseNode.notedRecords, p_coded the naive-
 * Bayes rate of its HAS_MANIFESTATION edge (0 without one). Every feature is then scored as one
 * learnt from notes (α_notes for what a disease never showed, γ_notes for the unreported sum),
 * and a "complete" description is as long as a note. Diseases of one kind keep their edges. Chosen
 * on the dev checks only (docs/notes.md, session 14): m = 4; without the view, naive Bayes alone
 * on a DDXPlus + notes KG read text like a DDXPlus KG (77.6% top-1 on dev-b, 93.9 with the notes alone).
 */
export interface TextViewParams extends Pick<NbParams, 'alpha' | 'notesAlpha' | 'minRecords' | 'declared'> {
  /** m above: how many notes the coded rate counts as. */
  notesCodedPrior: number;
}

const cache = new WeakMap<KgSnapshot, Map<string, KgSnapshot>>();

/** The text view of `s`, or null when no disease of `s` has both kinds of records (then `s` is its own text view). */
export function textView(s: KgSnapshot, p: TextViewParams): KgSnapshot | null {
  if (!s.notesMentions.some((x) => x !== null)) return null;
  const perSnap = cache.get(s) ?? new Map<string, KgSnapshot>();
  cache.set(s, perSnap);
  const key = `${p.alpha}|${p.notesAlpha}|${p.minRecords}|${p.declared}|${p.notesCodedPrior}`;
  const hit = perSnap.get(key);
  if (hit) return hit;
  // The coded rates as chosen (no notes backoff: that is for KGs learnt from notes alone).
  const coded = nbTables(s, { alpha: p.alpha, ...(p.notesAlpha === undefined ? {} : { notesAlpha: p.notesAlpha }), ...(p.minRecords === undefined ? {} : { minRecords: p.minRecords }), ...(p.declared === undefined ? {} : { declared: p.declared }) });
  const a = p.notesAlpha ?? p.alpha;
  const m = p.notesCodedPrior;
  const edges: ManifestationEdge[] = [];
  let mentioned = 0;
  let noted = 0;
  s.diseases.forEach((dis, d) => {
    const man = s.manifestations[d]!;
    const notes = s.notesMentions[d];
    const n = dis.notedRecords ?? 0;
    if (!notes || n <= 0) {
      man.features.forEach((f, i) => edges.push({ diseaseId: dis.id, featureId: s.features[f]!.id, prevalence: man.prevalence[i]!, count: man.counts[i]!, source: 'ehr' }));
      return;
    }
    const said = new Map<number, number>();
    notes.features.forEach((f, i) => said.set(f, notes.counts[i]!));
    for (const f of new Set([...man.features, ...notes.features])) {
      const pos = man.position.get(f);
      const pCoded = pos === undefined ? 0 : Math.exp(coded.logP[d]![pos]!);
      const c = said.get(f) ?? 0;
      mentioned += c;
      // count 0: an estimated edge, scored at its prevalence as it stands (scoring-naive-bayes.ts).
      edges.push({ diseaseId: dis.id, featureId: s.features[f]!.id, prevalence: (c + m * pCoded + a) / (n + m + 2 * a), count: 0, source: 'ehr' });
    }
    noted += n;
  });
  const view = buildSnapshot({ categories: s.categories, subcategories: s.subcategories, diseases: s.diseases, features: s.features.map((f) => ({ ...f, fromNotes: true })), manifestations: edges }, s.buildId);
  const out: KgSnapshot = { ...view, meanFeaturesPerRecord: noted > 0 ? mentioned / noted : 0 };
  perSnap.set(key, out);
  return out;
}
