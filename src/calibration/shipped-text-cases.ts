/**
 * Labelled free text shipped with the product, for the text calibration of a build that has no
 * text of its own to hold out (issue 48): the vignette sets that are not blind (cal.jsonl,
 * written for calibration, and the five dev sets; datasets/vignettes/README.md). They name
 * DDXPlus conditions, so they are used only for a KG whose diseases they name
 * (MIN_NAMED_SHARE of their cases; run-calibration.ts checks it against the build). Never the
 * blind test*.jsonl: those measure the result (bench/default-calibration.ts).
 */
import { access } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { readTextCases, type TextCase } from './text-cases.js';

const SETS = ['cal', 'dev', 'dev-b', 'dev-c', 'dev-d', 'dev-e'] as const;

/**
 * A KG naming fewer of their cases' diagnoses is another domain: the few it names would fit
 * its text calibration on a handful of diseases. 0.9: the DDXPlus sample's KG names all 49.
 */
export const MIN_NAMED_SHARE = 0.9;

export interface ShippedText {
  cases: TextCase[];
  /** Where they came from, as the calibration file records it (relative to the package). */
  sources: string[];
  minNamed: number;
}

/** The shipped sets, or none when the package was installed without its datasets. */
export async function shippedTextCases(): Promise<ShippedText> {
  const cases: TextCase[] = [];
  const sources: string[] = [];
  for (const s of SETS) {
    const path = fileURLToPath(new URL(`../../datasets/vignettes/${s}.jsonl`, import.meta.url));
    const present = await access(path).then(() => true, () => false);
    if (!present) continue;
    cases.push(...(await readTextCases(path)));
    sources.push(`text:datasets/vignettes/${s}.jsonl`);
  }
  return { cases, sources, minNamed: MIN_NAMED_SHARE };
}
