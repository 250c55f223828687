/**
 * Vocabulary-scale generator (benchmarks and equivalence tests): a KG of D diagnoses × F findings
 * learnt from N generated records, held in memory as a KgSnapshot, plus held-out cases. Each
 * diagnosis has `characteristic` findings (prevalence 0.2–0.9) drawn from the F findings; every
 * record shows each of its diagnosis's findings with that prevalence plus `noise` random findings
 * of the whole vocabulary (a hospital's incidental labs and codes). Diagnosis frequencies follow a
 * Zipf law (s = 0.8), so some diagnoses are rare as in a real ward. Edges are counted as the build's
 * decompose stage counts them (count, prevalence = count / n_d); subcategories group `perSubcategory`
 * diagnoses in generation order (the statistical hierarchy is not what is measured here).
 * Seeded and deterministic.
 */
import type { DiagnosticKg, DiseaseNode, FeatureNode, ManifestationEdge } from '../../src/domain/kg.js';
import { buildSnapshot, type KgSnapshot } from '../../src/query/kg-snapshot.js';
import { cumulativeOf, drawCumulative, mulberry32, type Rng } from '../lib/rng.js';

export interface VocabOptions {
  diseases: number;
  features: number;
  records: number;
  characteristic?: number;
  noise?: number;
  perSubcategory?: number;
  cases?: number;
  seed?: number;
}

/** A held-out case: the diagnosis index and the present findings (feature indices). */
export interface VocabCase {
  disease: number;
  present: number[];
}

export interface VocabKg {
  snapshot: KgSnapshot;
  cases: VocabCase[];
}

interface Profile {
  features: Int32Array;
  prevalence: Float64Array;
}

function profiles(rng: Rng, D: number, F: number, k: number): Profile[] {
  return Array.from({ length: D }, () => {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(k, F)) chosen.add(Math.floor(rng() * F));
    const features = Int32Array.from(chosen);
    return { features, prevalence: Float64Array.from(features, () => 0.2 + 0.7 * rng()) };
  });
}

function drawRecord(rng: Rng, p: Profile, F: number, noise: number): number[] {
  const out = new Set<number>();
  for (let i = 0; i < p.features.length; i++) if (rng() < p.prevalence[i]!) out.add(p.features[i]!);
  for (let j = 0; j < noise; j++) out.add(Math.floor(rng() * F));
  return [...out];
}

/**
 * The generator's records one at a time (diagnosis index and present findings), then its held-out
 * cases: the same seeded sequence generateVocabKg counts, for a bench that writes the records to
 * a CSV and builds through the CLI (vocab-served.ts).
 */
export function* vocabRecords(o: VocabOptions): Generator<VocabCase, VocabCase[]> {
  const rng = mulberry32(o.seed ?? 1);
  const { diseases: D, features: F, records: N } = o;
  const noise = o.noise ?? 2;
  const prof = profiles(rng, D, F, o.characteristic ?? 20);
  const cumulative = cumulativeOf(Array.from({ length: D }, (_, d) => 1 / (d + 1) ** 0.8));
  for (let r = 0; r < N; r++) {
    const d = drawCumulative(rng, cumulative);
    yield { disease: d, present: drawRecord(rng, prof[d]!, F, noise) };
  }
  return Array.from({ length: o.cases ?? 100 }, () => {
    const d = drawCumulative(rng, cumulative);
    return { disease: d, present: drawRecord(rng, prof[d]!, F, noise) };
  });
}

export function generateVocabKg(o: VocabOptions): VocabKg {
  const counts: Map<number, number>[] = Array.from({ length: o.diseases }, () => new Map());
  const n = new Int32Array(o.diseases);
  const gen = vocabRecords(o);
  let next = gen.next();
  for (; !next.done; next = gen.next()) {
    const { disease: d, present } = next.value;
    n[d]!++;
    for (const f of present) counts[d]!.set(f, (counts[d]!.get(f) ?? 0) + 1);
  }
  return { snapshot: buildSnapshot(vocabKg(n, counts, o.features, o.perSubcategory ?? 10)), cases: next.value };
}

function vocabKg(n: Int32Array, counts: Map<number, number>[], F: number, perSub: number): Omit<DiagnosticKg, 'keyDifferences'> {
  const D = n.length;
  const S = Math.ceil(D / perSub);
  const subcategories = Array.from({ length: S }, (_, s) => ({ id: `sub:s${s}`, name: `group ${s}`, categoryId: `cat:c${Math.floor(s / 10)}` }));
  const categories = Array.from({ length: Math.ceil(S / 10) }, (_, c) => ({ id: `cat:c${c}`, name: `chapter ${c}` }));
  const diseases: DiseaseNode[] = Array.from({ length: D }, (_, d) => ({ id: `dis:d${d}`, name: `diagnosis ${d}`, subcategoryId: `sub:s${Math.floor(d / perSub)}`, icd10: null, recordCount: n[d]!, aliases: [] }));
  const features: FeatureNode[] = Array.from({ length: F }, (_, f) => ({ id: `feat:f${f}`, text: `finding ${f}`, kind: 'ehr', code: null, valueCode: null, question: null, valueText: null, antecedent: null }));
  const manifestations: ManifestationEdge[] = [];
  counts.forEach((row, d) => {
    for (const [f, c] of row) manifestations.push({ diseaseId: `dis:d${d}`, featureId: `feat:f${f}`, prevalence: c / n[d]!, count: c, source: 'ehr' });
  });
  return { categories, subcategories, diseases, features, manifestations };
}
