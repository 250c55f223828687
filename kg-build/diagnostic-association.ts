/**
 * Is a phrase of the notes associated with the diagnosis? For each disease, the G-test of
 * independence (Sokal & Rohlf, Biometry, ch. 17) of the 2×2 table "note shows the phrase" ×
 * "note is of this disease" (G = 2 Σ O·ln(O/E), 1 degree of freedom); the phrase is associated
 * when one disease shows it more than the rest at a Bonferroni-corrected level over the diseases.
 * One test over all diseases at once would miss "peppery", 5 of scombroid poisoning's notes and
 * none else: 47 degrees of freedom drown one disease. An emergent concept is a phrase no
 * vocabulary names ("leaning forward", "peppery", "same", "brought"); the ones written alike for
 * every disease carry nothing a diagnosis can use, and only fill the KG with edges no second note backs.
 */
export interface DiseaseShare {
  /** Notes of the disease showing the phrase. */
  present: number;
  /** Notes of the disease. */
  notes: number;
}

/** Bonferroni-corrected p-value of the disease that shows the phrase most beyond the rest (1 when none does). */
export function associationPValue(shares: readonly DiseaseShare[]): number {
  const rows = shares.filter((s) => s.notes > 0);
  const total = rows.reduce((a, s) => a + s.notes, 0);
  const shown = rows.reduce((a, s) => a + s.present, 0);
  if (rows.length < 2 || shown === 0 || shown === total) return 1;
  let best = 1;
  for (const s of rows) {
    const rest = { present: shown - s.present, notes: total - s.notes };
    if (s.present / s.notes <= rest.present / rest.notes) continue;
    best = Math.min(best, chiSquare1Survival(gStatistic([[s.present, s.notes - s.present], [rest.present, rest.notes - rest.present]])));
  }
  return Math.min(1, best * rows.length);
}

/**
 * G of one disease's notes against the rest when the disease states the phrase more often than
 * the rest do, else 0 (a finding written less often in a disease says little FOR it, which is
 * what a KG feature of that disease should do).
 */
export function excessAssociation(disease: DiseaseShare, rest: DiseaseShare): number {
  if (disease.notes <= 0 || rest.notes <= 0 || disease.present / disease.notes <= rest.present / rest.notes) return 0;
  return gStatistic([[disease.present, disease.notes - disease.present], [rest.present, rest.notes - rest.present]]);
}

/** G = 2 Σ O·ln(O/E) of a contingency table (expected counts from its margins). */
function gStatistic(table: readonly (readonly number[])[]): number {
  const total = table.flat().reduce((a, b) => a + b, 0);
  const rowSums = table.map((r) => r.reduce((a, b) => a + b, 0));
  const colSums = table[0]!.map((_, j) => table.reduce((a, r) => a + r[j]!, 0));
  let g = 0;
  table.forEach((r, i) => r.forEach((o, j) => { if (o > 0) g += o * Math.log(o / ((rowSums[i]! * colSums[j]!) / total)); }));
  return 2 * g;
}

/** P(χ²₁ ≥ x) = erfc(√(x/2)), exact for one degree of freedom. */
export function chiSquare1Survival(x: number): number {
  return x <= 0 ? 1 : erfc(Math.sqrt(x / 2));
}

/** Complementary error function (Numerical Recipes' erfcc, fractional error < 1.2e-7). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + z / 2);
  const r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851973 + t * (-0.82215223 + t * 0.17087277)))))))));
  return x >= 0 ? r : 2 - r;
}
