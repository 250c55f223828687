/**
 * The test patients: streamed from a source, optionally reduced to a seeded sample of
 * `limit` records (the `limit` smallest hash(seed, id) values), so `--limit` gives the
 * same patients on every run and machine and is not biased to the file's first rows.
 */
import type { NormalizedRecord } from '../domain/record.js';
import { hashUnit } from '../sources/split.js';

export async function loadTestSet(records: AsyncIterable<NormalizedRecord>, opts: { limit: number | null; seed: number }): Promise<NormalizedRecord[]> {
  const keyed: { key: number; rec: NormalizedRecord }[] = [];
  const byKey = (a: { key: number; rec: NormalizedRecord }, b: { key: number; rec: NormalizedRecord }) => a.key - b.key || a.rec.id.localeCompare(b.rec.id);
  for await (const rec of records) {
    keyed.push({ key: opts.limit === null ? keyed.length : hashUnit(opts.seed, `eval:${rec.id}`), rec });
    // Bounded memory for a small limit over a large source: trim back to `limit` now and then.
    if (opts.limit !== null && keyed.length >= 2 * opts.limit + 1024) keyed.sort(byKey).splice(opts.limit);
  }
  keyed.sort(byKey);
  return (opts.limit === null ? keyed : keyed.slice(0, opts.limit)).map((k) => k.rec);
}
