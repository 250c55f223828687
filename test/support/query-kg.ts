import { fixtureFromRecords, record, type Fixture } from './snapshot-fixture.js';

/**
 * A tiny hand-made KG for the query unit tests: three diseases in two subcategories.
 *   Flu (respiratory):        fever 4/4, cough 4/4, sore throat 2/4
 *   Measles (respiratory):    fever 2/2, rash 2/2
 *   Angina (cardiac):         chest pain 3/3, sweating 2/3, fever 1/3
 */
export async function tinyKg(): Promise<Fixture> {
  const recs = [
    record('r1', 'Flu', ['fever', 'cough', 'sore throat']),
    record('r2', 'Flu', ['fever', 'cough', 'sore throat']),
    record('r3', 'Flu', ['fever', 'cough']),
    record('r4', 'Flu', ['fever', 'cough']),
    record('r5', 'Measles', ['fever', 'rash']),
    record('r6', 'Measles', ['fever', 'rash']),
    record('r7', 'Angina', ['chest pain', 'sweating', 'fever']),
    record('r8', 'Angina', ['chest pain', 'sweating']),
    record('r9', 'Angina', ['chest pain']),
  ];
  return fixtureFromRecords(recs, (d) => (d === 'Angina' ? 'cardiac' : 'respiratory'));
}
