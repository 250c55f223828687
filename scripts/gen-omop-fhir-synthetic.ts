/**
 * Generates the synthetic OMOP CDM v5.4 and FHIR R4 test sets, deterministically from a seed:
 *
 *   npx tsx scripts/gen-omop-fhir-synthetic.ts [--seed 19] [--persons 120]
 *     [--omop datasets/omop-synthetic] [--fhir datasets/fhir-synthetic]
 *
 * One population (gen-omop-fhir-synthetic.population.ts) rendered twice: OMOP CSVs (+ the
 * concept / concept_relationship slice) and FHIR bundles + bulk-export ndjson of the same
 * patients. All data is made up; no real person is behind any row.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { stringify } from 'csv-stringify/sync';
import { bundleOf, fhirResources } from './gen-omop-fhir-synthetic.fhir.js';
import { omopTables } from './gen-omop-fhir-synthetic.omop.js';
import { generatePopulation } from './gen-omop-fhir-synthetic.population.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '19' },
    persons: { type: 'string', default: '120' },
    omop: { type: 'string', default: 'datasets/omop-synthetic' },
    fhir: { type: 'string', default: 'datasets/fhir-synthetic' },
  },
});
const seed = Number(values.seed);
const persons = Number(values.persons);
if (!Number.isInteger(seed) || !Number.isInteger(persons) || persons < 1) throw new Error('--seed and --persons must be integers (persons >= 1)');

const pop = generatePopulation({ seed, persons });

// OMOP: one CSV per table, header row, empty field = NULL (PostgreSQL COPY ... CSV HEADER).
const omopDir = join(values.omop, 'data');
await mkdir(omopDir, { recursive: true });
for (const [name, table] of Object.entries(omopTables(pop))) {
  const rows = table.rows.map((r) => table.columns.map((c) => r[c] ?? null));
  await writeFile(join(omopDir, `${name}.csv`), stringify([table.columns as string[], ...rows]));
}

// FHIR: one bundle per patient (alternately transaction with urn:uuid references, and
// collection), and the same resources as a bulk export (one ndjson file per type).
const set = fhirResources(pop);
const bundles = join(values.fhir, 'bundles');
const ndjson = join(values.fhir, 'ndjson');
await rm(bundles, { recursive: true, force: true });
await rm(ndjson, { recursive: true, force: true });
await mkdir(bundles, { recursive: true });
await mkdir(ndjson, { recursive: true });
for (const [i, p] of set.byPatient.entries()) {
  await writeFile(join(bundles, `${p.patientId}.json`), `${JSON.stringify(bundleOf(p.resources, i % 2 === 0 ? 'transaction' : 'collection'))}\n`);
}
await writeFile(join(bundles, 'unlinked.json'), `${JSON.stringify(bundleOf(set.unlinked, 'collection'))}\n`);
const byType = new Map<string, string[]>();
for (const r of [...set.byPatient.flatMap((p) => p.resources), ...set.unlinked]) {
  const lines = byType.get(r.resourceType) ?? [];
  lines.push(JSON.stringify(r));
  byType.set(r.resourceType, lines);
}
for (const [type, lines] of [...byType].sort()) await writeFile(join(ndjson, `${type}.ndjson`), `${lines.join('\n')}\n`);

const visits = pop.persons.reduce((n, p) => n + p.visits.length, 0) + 1;
process.stdout.write(`seed ${seed}: ${persons} persons, ${visits} visits -> ${values.omop}/data, ${bundles}, ${ndjson}\n`);
