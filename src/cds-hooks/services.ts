import type { CdsService } from './spec.js';

/**
 * The services `GET /cds-services` lists. Both read the same chart; encounter-start scopes
 * the Observations and notes to the encounter being opened. Prefetch templates use only
 * context tokens of their hook ({{context.patientId}}, {{context.encounterId}}), so a
 * client can always fill them (spec: "Prefetch tokens").
 */
const PATIENT_PREFETCH: Record<string, string> = {
  patient: 'Patient/{{context.patientId}}',
  conditions: 'Condition?patient={{context.patientId}}',
  observations: 'Observation?patient={{context.patientId}}&_sort=-date&_count=200',
  notes: 'DocumentReference?patient={{context.patientId}}&_sort=-date&_count=10',
};

const ENCOUNTER_PREFETCH: Record<string, string> = {
  patient: 'Patient/{{context.patientId}}',
  conditions: 'Condition?patient={{context.patientId}}',
  observations: 'Observation?patient={{context.patientId}}&encounter={{context.encounterId}}&_count=200',
  notes: 'DocumentReference?patient={{context.patientId}}&encounter={{context.encounterId}}&_count=10',
};

const DESCRIPTION =
  'A differential diagnosis of the chart (coded Conditions and Observations, and the text of recent notes) from the dxgraph knowledge graph, with calibrated probabilities and the follow-up questions most worth asking.';

export const CDS_SERVICES: readonly CdsService[] = [
  { hook: 'patient-view', id: 'dxgraph-differential', title: 'dxgraph differential diagnosis', description: DESCRIPTION, prefetch: PATIENT_PREFETCH },
  { hook: 'encounter-start', id: 'dxgraph-differential-encounter', title: 'dxgraph differential diagnosis (encounter)', description: DESCRIPTION, prefetch: ENCOUNTER_PREFETCH },
];

export const serviceById = (id: string): CdsService | undefined => CDS_SERVICES.find((s) => s.id === id);

/** A prefetch template with the request's context filled in; null when it names a token the context lacks. */
export function fillTemplate(template: string, context: Record<string, unknown>): string | null {
  let missing = false;
  const filled = template.replace(/\{\{\s*context\.([A-Za-z]+)\s*\}\}/g, (_m, key: string) => {
    const v = context[key];
    if (typeof v !== 'string' || v === '') {
      missing = true;
      return '';
    }
    return encodeURIComponent(v);
  });
  return missing ? null : filled;
}
