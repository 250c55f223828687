/**
 * The product's own lab table (src/clinical-text/labs/reference-ranges.json) checked against
 * LOINC2HPO (JAX-curated LOINC outcome -> HPO annotations; research use only, so it is read here
 * from ../shared and never shipped). For every analyte's LOINC codes (measurement-rules.json:
 * loinc and alsoLoinc) and each direction the table names a phenotype for, the LOINC2HPO term of
 * the same code and outcome (L / H): the same term, a related one (ancestor or descendant in HPO),
 * another one, or no annotation. Prints a table and the agreement.
 *   node --import tsx bench/labs-vs-loinc2hpo.ts [path/to/loinc2hpo-annotations.tsv]
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MEASUREMENT_RULES } from '../src/clinical-text/analysis/measurements.js';
import { labReference } from '../src/clinical-text/labs/reference-ranges.js';
import { loadHpo } from '../src/vocabularies/load-hpo.js';

const path = resolve(process.argv[2] ?? '../shared/datasets/loinc2hpo/loinc2hpo-annotations.tsv');
if (!existsSync(path)) {
  console.error(`[labs-vs-loinc2hpo] ${path} is not there: nothing was checked. Give the LOINC2HPO annotations file (loinc2hpo-annotations.tsv) as the first argument.`);
  process.exit(2);
}

// loincId \t loincScale \t outcome \t hpoTermId ...
const annotations = new Map<string, string>();
for (const line of readFileSync(path, 'utf8').split('\n').slice(1)) {
  const [loinc, , outcome, hpo] = line.split('\t');
  if (loinc && outcome && hpo) annotations.set(`${loinc}|${outcome}`, hpo);
}

const hpo = await loadHpo();
if (!hpo.ok) throw hpo.error;
const parents = new Map(hpo.value.concepts.map((c) => [c.code, c.parents]));
const labels = new Map(hpo.value.concepts.map((c) => [c.code, c.label]));
const ancestors = (code: string): Set<string> => {
  const out = new Set<string>();
  const stack = [...(parents.get(code) ?? [])];
  while (stack.length > 0) {
    const c = stack.pop()!;
    if (out.has(c)) continue;
    out.add(c);
    stack.push(...(parents.get(c) ?? []));
  }
  return out;
};

type Verdict = 'same' | 'related' | 'different' | 'not annotated';
const tally: Record<Verdict, number> = { same: 0, related: 0, different: 0, 'not annotated': 0 };
const rows: string[] = [];
for (const rule of MEASUREMENT_RULES) {
  const lab = labReference(rule.loinc)!;
  for (const [dir, outcome] of [['low', 'L'], ['high', 'H']] as const) {
    const ours = lab[dir];
    if (!ours) continue;
    // The analyte's codes: one verdict per phenotype, the best any of its codes gives.
    let best: { verdict: Verdict; code: string; theirs: string | null } = { verdict: 'not annotated', code: rule.loinc, theirs: null };
    const rank: Record<Verdict, number> = { same: 0, related: 1, different: 2, 'not annotated': 3 };
    for (const code of [rule.loinc, ...(rule.alsoLoinc ?? [])]) {
      const theirs = annotations.get(`${code}|${outcome}`) ?? null;
      const verdict: Verdict = theirs === null ? 'not annotated' : theirs === ours.hpo ? 'same' : ancestors(ours.hpo).has(theirs) || ancestors(theirs).has(ours.hpo) ? 'related' : 'different';
      if (rank[verdict] < rank[best.verdict]) best = { verdict, code, theirs };
    }
    tally[best.verdict]++;
    rows.push(`| ${rule.analyte} | ${outcome} | ${best.code} | ${ours.hpo} ${labels.get(ours.hpo) ?? '?'} | ${best.theirs ? `${best.theirs} ${labels.get(best.theirs) ?? '(not in this HPO release)'}` : '-'} | ${best.verdict} |`);
  }
}
const n = rows.length;
const annotated = n - tally['not annotated'];
console.log('| analyte | outcome | LOINC | ours | LOINC2HPO | verdict |\n| --- | --- | --- | --- | --- | --- |');
console.log(rows.join('\n'));
console.log(`\n${n} phenotypes of ${MEASUREMENT_RULES.length} analytes; LOINC2HPO annotates ${annotated}: same term ${tally.same}, related (ancestor or descendant) ${tally.related}, different ${tally.different}; agreement (same or related) ${annotated === 0 ? 0 : Math.round((1000 * (tally.same + tally.related)) / annotated) / 10}% of the annotated.`);
