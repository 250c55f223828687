import { seededRandom } from '../src/util/rng.js';
import { DIAGNOSES, LABS, SMOKING, type ChronicKey, type DiagnosisKey, type LabKey, type SymptomKey } from './gen-omop-fhir-synthetic.codes.js';

/**
 * The synthetic population, independent of any format: the OMOP and FHIR writers render the
 * same objects, so both sets hold the same patients, visits and values.
 */
export interface Person {
  id: number;
  sex: 'M' | 'F';
  birth: { year: number; month: number | null; day: number | null };
  /** Problem list: chronic conditions with their onset dates. */
  chronic: Array<{ key: ChronicKey; onset: string }>;
  visits: Visit[];
}

export interface Visit {
  id: number;
  /** null for the deliberately bad visit whose person is not in the set. */
  personId: number;
  date: string;
  kind: 'inpatient' | 'outpatient' | 'emergency';
  /** null: the deliberately bad visit recorded without a condition. */
  diagnosis: DiagnosisKey | null;
  /** A chronic condition also coded at this visit as a secondary diagnosis. */
  secondary: ChronicKey | null;
  symptoms: Array<{ key: SymptomKey; present: boolean }>;
  labs: Array<{ key: LabKey; value: number | 'unreadable' }>;
  dipstick: { leukocyteEsterase: boolean; nitrite: boolean } | null;
  smoking: keyof typeof SMOKING | null;
}


interface Profile {
  symptoms: Partial<Record<SymptomKey, number>>;
  /** Mean and SD of each lab; troponin is log-normal (mean / sd of its log10). */
  labs: Partial<Record<LabKey, [number, number]>>;
  dipstick: number;
  age: [number, number];
  female: number;
}

const VITALS = (t: number, hr: number, rr: number, spo2: number): Partial<Record<LabKey, [number, number]>> => ({ temperature: [t, 0.5], heartRate: [hr, 10], respRate: [rr, 3], spo2: [spo2, 2] });

const PROFILES: Record<DiagnosisKey, Profile> = {
  pneumonia: { symptoms: { fever: 0.85, cough: 0.9, productiveCough: 0.6, dyspnea: 0.7, chestPain: 0.35, myalgia: 0.2 }, labs: { ...VITALS(38.6, 105, 24, 92), wbc: [15, 4], crp: [120, 60] }, dipstick: 0.1, age: [30, 90], female: 0.5 },
  influenza: { symptoms: { fever: 0.9, cough: 0.8, myalgia: 0.85, headache: 0.7, soreThroat: 0.6 }, labs: { ...VITALS(38.8, 98, 18, 97), wbc: [7, 2.5], crp: [25, 15] }, dipstick: 0.05, age: [18, 80], female: 0.5 },
  asthmaExacerbation: { symptoms: { wheezing: 0.9, dyspnea: 0.95, cough: 0.7, chestPain: 0.2 }, labs: { ...VITALS(36.9, 108, 26, 93), wbc: [9, 2.5], crp: [6, 5] }, dipstick: 0.05, age: [18, 70], female: 0.55 },
  uti: { symptoms: { dysuria: 0.9, frequency: 0.85, fever: 0.3, nausea: 0.2 }, labs: { ...VITALS(37.5, 88, 16, 98), wbc: [11, 3], crp: [30, 20] }, dipstick: 1, age: [18, 85], female: 0.8 },
  nstemi: { symptoms: { chestPain: 0.95, sweating: 0.6, dyspnea: 0.5, nausea: 0.4 }, labs: { ...VITALS(36.9, 92, 18, 95), wbc: [9, 2], crp: [8, 6], troponin: [0, 0.5] }, dipstick: 0.05, age: [45, 90], female: 0.35 },
  gerd: { symptoms: { heartburn: 0.9, chestPain: 0.4, cough: 0.3, nausea: 0.3 }, labs: { ...VITALS(36.8, 76, 15, 98), wbc: [7, 1.5], crp: [3, 2] }, dipstick: 0.05, age: [20, 80], female: 0.5 },
};

/** Symptoms a clinician asks about anyway: recorded as absent ("No") when not present, some of the time. */
const ASKED: SymptomKey[] = ['fever', 'cough', 'chestPain', 'dyspnea'];

export interface PopulationOptions {
  seed: number;
  persons: number;
}

export interface Population {
  persons: Person[];
  /** A visit whose person is not in the set (bad row: missing person). */
  orphanVisit: Visit;
  /** A measurement that names no visit (reported, cannot join a record). */
  looseLab: { personId: number; date: string; key: LabKey; value: number };
}

export function generatePopulation(o: PopulationOptions): Population {
  const r = seededRandom(o.seed); // the project's mulberry32: the same seed always gives the same set
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const normal = (mean: number, sd: number): number => mean + sd * Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const round = (v: number, d: number): number => Number(v.toFixed(d));
  const isoDate = (y: number, m: number, d: number): string => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const diagnoses = Object.keys(DIAGNOSES) as DiagnosisKey[];
  let visitId = 0;
  const persons: Person[] = [];
  for (let id = 1; id <= o.persons; id++) {
    const first = pick(diagnoses);
    const p = PROFILES[first];
    const sex: 'M' | 'F' = r() < p.female ? 'F' : 'M';
    const age = Math.floor(p.age[0] + r() * (p.age[1] - p.age[0]));
    const firstDate = { y: 2023, m: 1 + Math.floor(r() * 12), d: 1 + Math.floor(r() * 28) };
    // One person in ten has only a birth year, as some OMOP ETLs and FHIR exports give it.
    const yearOnly = r() < 0.1;
    const birth = { year: firstDate.y - age, month: yearOnly ? null : 1 + Math.floor(r() * 12), day: yearOnly ? null : 1 + Math.floor(r() * 28) };
    const chronic: Person['chronic'] = [];
    const add = (key: ChronicKey, prob: number): void => {
      if (r() < prob) chronic.push({ key, onset: isoDate(firstDate.y - 1 - Math.floor(r() * 8), 1 + Math.floor(r() * 12), 1 + Math.floor(r() * 28)) });
    };
    add('hypertension', age > 50 ? 0.45 : 0.1);
    add('diabetes', age > 50 ? 0.25 : 0.05);
    add('asthma', first === 'asthmaExacerbation' ? 0.95 : 0.05);
    add('copd', first === 'pneumonia' && age > 55 ? 0.3 : 0.03);
    const smoking = pick(['current', 'former', 'never', 'never'] as const);
    const visits: Visit[] = [];
    const nVisits = r() < 0.35 ? 2 : 1;
    for (let k = 0; k < nVisits; k++) {
      const dx = k === 0 ? first : pick(diagnoses);
      const prof = PROFILES[dx];
      const date = k === 0 ? isoDate(firstDate.y, firstDate.m, firstDate.d) : isoDate(2024, 1 + Math.floor(r() * 12), 1 + Math.floor(r() * 28));
      const symptoms: Visit['symptoms'] = [];
      for (const [key, prob] of Object.entries(prof.symptoms) as Array<[SymptomKey, number]>) if (r() < prob) symptoms.push({ key, present: true });
      for (const key of ASKED) if (!symptoms.some((s) => s.key === key) && r() < 0.3) symptoms.push({ key, present: false });
      const labs: Visit['labs'] = [];
      for (const [key, [mean, sd]] of Object.entries(prof.labs) as Array<[LabKey, [number, number]]>) {
        if (key !== 'temperature' && key !== 'heartRate' && r() < 0.15) continue; // not every lab is drawn
        const raw = key === 'troponin' ? 10 ** normal(mean, sd) : key === 'spo2' ? Math.min(100, normal(mean, sd)) : Math.max(0, normal(mean, sd));
        labs.push({ key, value: round(raw, LABS[key].decimals) });
      }
      if (dx !== 'nstemi' && symptoms.some((s) => s.key === 'chestPain' && s.present) && r() < 0.7) labs.push({ key: 'troponin', value: round(10 ** normal(-2.2, 0.3), 3) });
      const dipstick = r() < prof.dipstick ? { leukocyteEsterase: dx === 'uti' ? r() < 0.9 : r() < 0.1, nitrite: dx === 'uti' ? r() < 0.6 : r() < 0.05 } : null;
      const secondary = chronic.find((c) => c.key === 'hypertension' || c.key === 'diabetes');
      visits.push({
        id: ++visitId, personId: id, date, kind: dx === 'nstemi' || (dx === 'pneumonia' && age > 70) ? 'inpatient' : dx === 'asthmaExacerbation' ? 'emergency' : 'outpatient',
        diagnosis: dx, secondary: secondary !== undefined && r() < 0.3 ? secondary.key : null, symptoms, labs, dipstick, smoking: r() < 0.6 ? smoking : null,
      });
    }
    persons.push({ id, sex, birth, chronic, visits });
  }
  // Deliberately bad rows, the same in both formats: the sources must count and report them.
  const host = persons[0]!;
  host.visits[0]!.labs.push({ key: 'crp', value: 'unreadable' }); // "see comment" where a number belongs
  host.visits.push({ id: ++visitId, personId: host.id, date: '2024-11-20', kind: 'outpatient', diagnosis: null, secondary: null, symptoms: [{ key: 'cough', present: true }], labs: [], dipstick: null, smoking: null });
  const orphanVisit: Visit = { id: ++visitId, personId: o.persons + 1000, date: '2024-06-01', kind: 'outpatient', diagnosis: 'influenza', secondary: null, symptoms: [{ key: 'fever', present: true }], labs: [], dipstick: null, smoking: null };
  const looseLab = { personId: host.id, date: host.visits[0]!.date, key: 'temperature' as const, value: 37.1 };
  return { persons, orphanVisit, looseLab };
}
