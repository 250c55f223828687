import type { Condition, DiagnosticReport, DocumentReference, Observation, Patient, Resource } from '@medplum/fhirtypes';
import type { InputFinding } from '../clinical-text/findings.js';
import { addCondition, addObservation, emptyIndex } from '../sources/fhir/fhir-index.js';
import { normalizeReference } from '../sources/fhir/fhir-codes.js';
import { diagnosticReportNotes, documentReferenceNotes } from '../sources/fhir/fhir-notes.js';
import { ageAt, eventFinding, historyFinding } from '../sources/omop/visit-to-record.js';
import { codedMeasurementFinding } from '../clinical-text/analysis/measurements.js';

/**
 * A chart (the FHIR resources of a hook's prefetch) as what `diagnose` takes, through the
 * `fhir:` source's own mapping: Conditions and Observations give the findings a build record
 * of the same resources has (same codes, same bins), notes give text. The chart is read as
 * one visit: the current encounter (context.encounterId, else the encounters the chart's
 * Observations and notes name). Diagnoses recorded at that visit are left out: they are the
 * answer, not evidence; earlier ones and problem-list items are history.
 */
export interface ChartInput {
  findings: InputFinding[];
  /** The notes' text, to be prepared (identifiers scrubbed, diagnosis sections blanked) and read. */
  notes: string[];
  age: number | null;
  sex: 'M' | 'F' | null;
  /** Facts that gave no finding, by reason (counts only: never resource content). */
  skipped: Record<string, number>;
}

const VISIT = 'Encounter/cds-current-visit';
const GENDER: Readonly<Record<string, 'M' | 'F'>> = { male: 'M', female: 'F' };

/** Every resource of the prefetch values: a Bundle's entries, or a single resource. */
export function chartResources(values: readonly unknown[]): Resource[] {
  const out: Resource[] = [];
  for (const v of values) {
    if (v === null || typeof v !== 'object' || typeof (v as Resource).resourceType !== 'string') continue;
    const r = v as Resource;
    if (r.resourceType === 'Bundle') {
      for (const e of r.entry ?? []) if (e.resource !== undefined && typeof e.resource.resourceType === 'string') out.push(e.resource);
    } else out.push(r);
  }
  return out;
}

const encounterOf = (r: Resource): string | null => {
  switch (r.resourceType) {
    case 'Observation':
    case 'DiagnosticReport':
      return normalizeReference(r.encounter?.reference);
    case 'DocumentReference':
      return normalizeReference(r.context?.encounter?.[0]?.reference);
    default:
      return null;
  }
};

/** The patient a resource is about (Patient: itself), when it says. */
const subjectOf = (r: Resource): string | null =>
  r.resourceType === 'Patient' ? `Patient/${r.id}` : normalizeReference((r as { subject?: { reference?: string } }).subject?.reference);

export function chartToInput(resources: readonly Resource[], opts: { patientId: string; encounterId: string | null; today: string }): ChartInput {
  const skipped: Record<string, number> = {};
  const skip = (reason: string) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
  const current = new Set<string>();
  if (opts.encounterId !== null) current.add(`Encounter/${opts.encounterId}`);
  else for (const r of resources) if (encounterOf(r) !== null && r.resourceType !== 'Condition') current.add(encounterOf(r)!);
  // With an encounter named, another encounter's Observations and notes are not this visit's.
  const ofVisit = (r: Resource) => opts.encounterId === null || encounterOf(r) === null || current.has(encounterOf(r)!);

  const ix = emptyIndex();
  const notes: string[] = [];
  let patient: Patient | null = null;
  for (const r of resources) {
    // A resource of another patient (a careless search, a shared bundle) is never this chart's evidence.
    if (subjectOf(r) !== null && subjectOf(r) !== `Patient/${opts.patientId}`) skip('other-patient');
    else if (r.resourceType === 'Patient') patient ??= r;
    else if (r.resourceType === 'Condition') addCondition(ix, r as Condition, 'chart');
    else if (!ofVisit(r)) skip('other-encounter');
    else if (r.resourceType === 'Observation') addObservation(ix, { ...(r as Observation), encounter: { reference: VISIT } }, 'chart');
    else if (r.resourceType === 'DocumentReference' || r.resourceType === 'DiagnosticReport') {
      const out = r.resourceType === 'DocumentReference' ? documentReferenceNotes(r as DocumentReference, 'chart') : diagnosticReportNotes(r as DiagnosticReport, 'chart');
      notes.push(...out.notes.map((n) => n.note.text));
      for (const p of out.problems) skip(p.category);
    } else skip('unsupported-resource');
  }
  for (const p of ix.problems) skip(p.problem.category);

  const findings: InputFinding[] = [];
  // This visit's findings first, then history: a caller keeping the first N keeps the visit.
  // No build tertiles here: a value without a reference range or interpretation gives no bin.
  // One a measurement rule knows (its LOINC code, a unit it converts) is read as the same value
  // written in a note is: the KG's thirds of it, else the phenotype it shows (measurements.ts).
  for (const e of ix.eventsByEncounter.get(VISIT) ?? []) {
    const f = eventFinding(e, new Map());
    if (f.ok) findings.push(toInput(f.value));
    else if (f.error.category !== 'numeric-without-bins') skip(f.error.category);
    else {
      const m = e.value.kind === 'number' && e.concept.vocabulary === 'LOINC' ? codedMeasurementFinding(e.concept.code, e.value.value, e.value.unit) : null;
      if (m?.ok) findings.push({ text: m.value.text, polarity: 'present', code: null, valueCode: null, measured: m.value.measured });
      else skip(f.error.category);
    }
  }
  for (const c of [...ix.conditionsByPatient.values()].flat()) {
    if (c.encounterRef !== null && current.has(c.encounterRef) && !c.problemList) skip('diagnosis-of-this-visit');
    else findings.push(toInput(historyFinding(c.fact)));
  }
  return { findings: dedupe(findings), notes, ...demographics(patient, opts.today), skipped };
}

const toInput = (f: { text: string; polarity: InputFinding['polarity']; code: string | null; valueCode: string | null }): InputFinding => ({ text: f.text, polarity: f.polarity, code: f.code, valueCode: f.valueCode });

function dedupe(findings: InputFinding[]): InputFinding[] {
  const seen = new Map<string, InputFinding>();
  for (const f of findings) seen.set(`${f.code ?? f.text}|${f.valueCode ?? ''}|${f.polarity}`, f);
  return [...seen.values()];
}

function demographics(p: Patient | null, today: string): { age: number | null; sex: 'M' | 'F' | null } {
  const sex = GENDER[p?.gender ?? ''] ?? null;
  const m = /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$/.exec(p?.birthDate ?? '');
  if (m === null) return { age: null, sex };
  const age = ageAt({ year: Number(m[1]), month: m[2] === undefined ? null : Number(m[2]), day: m[3] === undefined ? null : Number(m[3]) }, today);
  return { age: age >= 0 && age < 150 ? age : null, sex };
}
