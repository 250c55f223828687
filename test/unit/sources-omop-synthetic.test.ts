import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import { fhirResources } from '../../scripts/gen-omop-fhir-synthetic.fhir.js';
import { omopTables } from '../../scripts/gen-omop-fhir-synthetic.omop.js';
import { generatePopulation } from '../../scripts/gen-omop-fhir-synthetic.population.js';

/** The synthetic OMOP / FHIR generator: deterministic, and the shipped files are its output. */
describe('synthetic OMOP / FHIR generator (scripts/gen-omop-fhir-synthetic.ts)', () => {
  it('the same seed gives the same population; another seed another one', () => {
    const a = generatePopulation({ seed: 19, persons: 120 });
    assert.deepEqual(generatePopulation({ seed: 19, persons: 120 }), a);
    assert.notDeepEqual(generatePopulation({ seed: 20, persons: 120 }), a);
    assert.equal(a.persons.length, 120);
    const diagnoses = new Set(a.persons.flatMap((p) => p.visits.map((v) => v.diagnosis)));
    assert.deepEqual([...diagnoses].filter((d) => d !== null).sort(), ['asthmaExacerbation', 'gerd', 'influenza', 'nstemi', 'pneumonia', 'uti']);
  });

  it('the shipped OMOP CSVs are the generator output for seed 19 (regenerate after changing it)', () => {
    const tables = omopTables(generatePopulation({ seed: 19, persons: 120 }));
    for (const [name, table] of Object.entries(tables)) {
      const csv = stringify([table.columns as string[], ...table.rows.map((r) => table.columns.map((c) => r[c] ?? null))]);
      assert.equal(readFileSync(`datasets/omop-synthetic/data/${name}.csv`, 'utf8'), csv, `${name}.csv is stale: run npx tsx scripts/gen-omop-fhir-synthetic.ts`);
    }
  });

  it('renders the same patients and visits in FHIR as in OMOP', () => {
    const pop = generatePopulation({ seed: 19, persons: 120 });
    const omop = omopTables(pop);
    const fhir = fhirResources(pop);
    const all = [...fhir.byPatient.flatMap((p) => p.resources), ...fhir.unlinked];
    const count = (type: string) => all.filter((r) => r.resourceType === type).length;
    assert.equal(count('Patient'), omop.person.rows.length);
    assert.equal(count('Encounter'), omop.visit_occurrence.rows.length);
    assert.equal(count('Condition'), omop.condition_occurrence.rows.length);
    assert.equal(count('Observation'), omop.measurement.rows.length + omop.observation.rows.length);
    const ndjson = readFileSync('datasets/fhir-synthetic/ndjson/Encounter.ndjson', 'utf8').trim().split('\n');
    assert.equal(ndjson.length, count('Encounter'));
  });
});
