/**
 * The code systems of the synthetic OMOP / FHIR set: real SNOMED CT, ICD-10-CM, LOINC and
 * UCUM codes with their usual display names. OMOP concept_ids are in the local range
 * (>= 2,000,000,000) except the few well-known OMOP concepts the CDM conventions name
 * (gender 8507/8532, visit 9201/9202/9203, EHR type 32817, condition status 32902/32908,
 * Yes/No 4188539/4188540), so nothing here claims to be an Athena concept_id it is not.
 */
export interface Code {
  vocabulary: 'SNOMED' | 'LOINC' | 'ICD10CM' | 'UCUM';
  code: string;
  name: string;
}

export const SYSTEM: Readonly<Record<Code['vocabulary'], string>> = {
  SNOMED: 'http://snomed.info/sct',
  LOINC: 'http://loinc.org',
  ICD10CM: 'http://hl7.org/fhir/sid/icd-10-cm',
  UCUM: 'http://unitsofmeasure.org',
};

const snomed = (code: string, name: string): Code => ({ vocabulary: 'SNOMED', code, name });
const loinc = (code: string, name: string): Code => ({ vocabulary: 'LOINC', code, name });
const icd = (code: string, name: string): Code => ({ vocabulary: 'ICD10CM', code, name });
const ucum = (code: string): Code => ({ vocabulary: 'UCUM', code, name: code });

/** A diagnosis: SNOMED standard concept + the ICD-10-CM code it is billed as. */
export interface Diagnosis {
  key: string;
  snomed: Code;
  icd10: Code;
}

export const DIAGNOSES = {
  pneumonia: { key: 'pneumonia', snomed: snomed('233604007', 'Pneumonia'), icd10: icd('J18.9', 'Pneumonia, unspecified organism') },
  influenza: { key: 'influenza', snomed: snomed('6142004', 'Influenza'), icd10: icd('J11.1', 'Influenza due to unidentified influenza virus with other respiratory manifestations') },
  asthmaExacerbation: { key: 'asthmaExacerbation', snomed: snomed('708038006', 'Acute exacerbation of asthma'), icd10: icd('J45.901', 'Unspecified asthma with (acute) exacerbation') },
  uti: { key: 'uti', snomed: snomed('68566005', 'Urinary tract infectious disease'), icd10: icd('N39.0', 'Urinary tract infection, site not specified') },
  nstemi: { key: 'nstemi', snomed: snomed('401314000', 'Acute non-ST segment elevation myocardial infarction'), icd10: icd('I21.4', 'Non-ST elevation (NSTEMI) myocardial infarction') },
  gerd: { key: 'gerd', snomed: snomed('235595009', 'Gastroesophageal reflux disease'), icd10: icd('K21.9', 'Gastro-esophageal reflux disease without esophagitis') },
} as const satisfies Record<string, Diagnosis>;

export type DiagnosisKey = keyof typeof DIAGNOSES;

/** Chronic conditions: the problem list (OMOP: condition_occurrence without a visit). */
export const CHRONIC = {
  hypertension: { key: 'hypertension', snomed: snomed('38341003', 'Hypertensive disorder'), icd10: icd('I10', 'Essential (primary) hypertension') },
  diabetes: { key: 'diabetes', snomed: snomed('44054006', 'Diabetes mellitus type 2'), icd10: icd('E11.9', 'Type 2 diabetes mellitus without complications') },
  asthma: { key: 'asthma', snomed: snomed('195967001', 'Asthma'), icd10: icd('J45.909', 'Unspecified asthma, uncomplicated') },
  copd: { key: 'copd', snomed: snomed('13645005', 'Chronic obstructive lung disease'), icd10: icd('J44.9', 'Chronic obstructive pulmonary disease, unspecified') },
} as const satisfies Record<string, Diagnosis>;

export type ChronicKey = keyof typeof CHRONIC;

/** Symptoms: SNOMED clinical findings, recorded as observations with a Yes / No value. */
export const SYMPTOMS = {
  fever: snomed('386661006', 'Fever'),
  cough: snomed('49727002', 'Cough'),
  productiveCough: snomed('28743005', 'Productive cough'),
  dyspnea: snomed('267036007', 'Dyspnea'),
  chestPain: snomed('29857009', 'Chest pain'),
  wheezing: snomed('56018004', 'Wheezing'),
  myalgia: snomed('68962001', 'Muscle pain'),
  headache: snomed('25064002', 'Headache'),
  soreThroat: snomed('162397003', 'Pain in throat'),
  dysuria: snomed('49650001', 'Dysuria'),
  frequency: snomed('162116003', 'Increased frequency of urination'),
  nausea: snomed('422587007', 'Nausea'),
  sweating: snomed('52613005', 'Excessive sweating'),
  heartburn: snomed('16331000', 'Heartburn'),
} as const;

export type SymptomKey = keyof typeof SYMPTOMS;

/** Numeric labs and vitals: LOINC, UCUM unit, reference range when labs report one. */
export interface NumericLab {
  code: Code;
  unit: Code;
  range: { low: number; high: number } | null;
  decimals: number;
}

export const LABS = {
  wbc: { code: loinc('6690-3', 'Leukocytes [#/volume] in Blood by Automated count'), unit: ucum('10*3/uL'), range: { low: 4.5, high: 11 }, decimals: 1 },
  crp: { code: loinc('1988-5', 'C reactive protein [Mass/volume] in Serum or Plasma'), unit: ucum('mg/L'), range: { low: 0, high: 10 }, decimals: 1 },
  troponin: { code: loinc('10839-9', 'Troponin I.cardiac [Mass/volume] in Serum or Plasma'), unit: ucum('ng/mL'), range: { low: 0, high: 0.04 }, decimals: 3 },
  spo2: { code: loinc('2708-6', 'Oxygen saturation in Arterial blood'), unit: ucum('%'), range: { low: 95, high: 100 }, decimals: 0 },
  // Vitals come without a reference range: the sources bin them by tertiles.
  temperature: { code: loinc('8310-5', 'Body temperature'), unit: ucum('Cel'), range: null, decimals: 1 },
  heartRate: { code: loinc('8867-4', 'Heart rate'), unit: ucum('/min'), range: null, decimals: 0 },
  respRate: { code: loinc('9279-1', 'Respiratory rate'), unit: ucum('/min'), range: null, decimals: 0 },
} as const satisfies Record<string, NumericLab>;

export type LabKey = keyof typeof LABS;

/** Coded results: urine dipstick (Positive / Negative) and smoking status. */
export const DIPSTICK = {
  leukocyteEsterase: loinc('5799-2', 'Leukocyte esterase [Presence] in Urine by Test strip'),
  nitrite: loinc('5802-4', 'Nitrite [Presence] in Urine by Test strip'),
} as const;
export const POSITIVE = snomed('10828004', 'Positive');
export const NEGATIVE = snomed('260385009', 'Negative');
export const SMOKING_STATUS = loinc('72166-2', 'Tobacco smoking status');
export const SMOKING = { current: snomed('77176002', 'Smoker'), former: snomed('8517006', 'Ex-smoker'), never: snomed('266919005', 'Never smoked tobacco') } as const;
export const YES = snomed('373066001', 'Yes');
export const NO = snomed('373067005', 'No');

/** The well-known OMOP concept ids the CDM conventions use. */
export const OMOP = {
  male: 8507, female: 8532, inpatient: 9201, outpatient: 9202, emergency: 9203, ehr: 32817,
  primary: 32902, secondary: 32908, yes: 4188539, no: 4188540,
} as const;
