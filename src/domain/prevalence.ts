/**
 * An edge's prevalence may be estimated over fewer records than its disease has (issue 24): a
 * coded feature of a disease whose records are partly notes is known only for the records that
 * could have shown it (kg-build/decompose-features.ts). `count / prevalence` is then that
 * denominator; for every other edge it is the disease's record count, which is returned as is
 * so existing KGs score exactly as before.
 */
export function observedRecords(count: number, prevalence: number, recordCount: number): number {
  if (count <= 0 || prevalence <= 0) return recordCount;
  const observed = count / prevalence;
  return Math.abs(observed - recordCount) > 0.5 ? observed : recordCount;
}
