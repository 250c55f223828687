import type { LexicalIndex } from './lexical-index.js';

/**
 * Disease profiles: each disease's training records summed into one TF-IDF row, the nearest-
 * centroid (Rocchio) classifier of text retrieval (Manning, Raghavan & Schütze, Introduction to
 * Information Retrieval, 2008, §14.2):
 *
 *   c_d = Σ_{r ∈ R_d} x_r / ‖Σ_{r ∈ R_d} x_r‖,   sim(q, d) = x_q · c_d
 *
 * with x the L2-normalised TF-IDF rows of the records' lexical index (lexical-index.ts). Why
 * beside the k nearest records: a disease's notes share words that no single note carries
 * all of, and ten neighbours sample only a few diseases; the profile reads every note of every
 * disease. Measured on the notes KGs (docs/notes.md, "Disease profiles"): the profile prior
 * lifts the whole path from 91.2 to 94.6 top-1 on the blind vignettes `test`
 * set and from 95.9 to 100 on `test-c`.
 *
 * Built once per build from the index's postings (no extra artifact, the same salted term
 * hashes, never words), kept as an inverted index term → (disease, weight) so a query touches
 * only its own terms.
 */
export class DiseaseProfiles {
  private constructor(
    private readonly index: LexicalIndex,
    readonly diseases: number,
    private readonly offsets: Uint32Array,
    private readonly postingDisease: Uint32Array,
    private readonly postingWeight: Float32Array,
  ) {}

  /** `rowDisease[r]`: the disease (snapshot order) of the index's row r, −1 when the KG has none. */
  static fromLexical(index: LexicalIndex, rowDisease: Int32Array, diseases: number): DiseaseProfiles {
    const d = index.arrays;
    const T = d.terms.length;
    const acc = new Float64Array(diseases);
    const touched: number[] = [];
    const offsets = new Uint32Array(T + 1);
    const pd: number[] = [];
    const pw: number[] = [];
    const sq = new Float64Array(diseases);
    for (let t = 0; t < T; t++) {
      for (let p = d.offsets[t]!; p < d.offsets[t + 1]!; p++) {
        const dis = rowDisease[d.postingRows[p]!]!;
        if (dis < 0) continue;
        if (acc[dis] === 0) touched.push(dis);
        acc[dis]! += d.postingWeights[p]!;
      }
      touched.sort((a, b) => a - b);
      for (const dis of touched) {
        pd.push(dis);
        pw.push(acc[dis]!);
        sq[dis]! += acc[dis]! * acc[dis]!;
        acc[dis] = 0;
      }
      touched.length = 0;
      offsets[t + 1] = pd.length;
    }
    const weights = Float32Array.from(pw, (w, i) => w / Math.sqrt(sq[pd[i]!]!));
    return new DiseaseProfiles(index, diseases, offsets, Uint32Array.from(pd), weights);
  }

  /** Cosine of the text's TF-IDF row with every disease's profile (0 for a disease without records or shared words). */
  similarities(text: string): Float64Array {
    const sims = new Float64Array(this.diseases);
    for (const [t, w] of this.index.queryRow(text)) {
      for (let p = this.offsets[t]!; p < this.offsets[t + 1]!; p++) sims[this.postingDisease[p]!]! += w * this.postingWeight[p]!;
    }
    return sims;
  }
}

/**
 * Row → disease index for the records of the lexical index (records.jsonl order), −1 for rows left
 * out. Only rows read from notes when the build flags them: in a KG from coded records and notes,
 * a coded record rendered as text ("fever: yes") is the KG's own counts again, and its formulaic
 * words would swamp the notes' (docs/notes.md, "Disease profiles").
 */
export function rowDiseases(ids: readonly string[], records: ReadonlyMap<string, { diseaseId: string | null; notes?: boolean }>, diseaseIndex: ReadonlyMap<string, number>): Int32Array {
  const flagged = ids.some((id) => records.get(id)?.notes === true);
  return Int32Array.from(ids, (id) => {
    const r = records.get(id);
    if (!r?.diseaseId || (flagged && r.notes !== true)) return -1;
    return diseaseIndex.get(r.diseaseId) ?? -1;
  });
}
