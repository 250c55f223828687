import type { Condition, Encounter, Observation, Patient } from '@medplum/fhirtypes';
import type { NormalizedRecord } from '../../domain/record.js';
import { RowTally } from '../row-issues.js';
import type { ImportSummary, RecordSource, SourceOptions } from '../types.js';
import type { ConditionFact, VisitFacts } from '../omop/clinical-facts.js';
import { FactTally } from '../omop/fact-tally.js';
import { visitToRecord } from '../omop/visit-to-record.js';
import { readFhirDir } from './fhir-files.js';
import { addCondition, addEncounter, addObservation, addPatient, emptyIndex, type FhirCondition, type FhirEncounter, type FhirIndex } from './fhir-index.js';

const numeric = new Intl.Collator('en', { numeric: true });

/**
 * A directory of FHIR R4 bundles and/or bulk-export ndjson as a RecordSource: one record per
 * Encounter, through the OMOP event model and the same visit-to-record rule as the OMOP
 * source. Pass 1 reads every file into compact facts (and the tertiles of numeric values
 * without a reference range); pass 2 assembles the encounters in id order.
 */
export class FhirSource implements RecordSource {
  readonly description: string;
  private rows = new RowTally(false);
  private facts = new FactTally(false);

  constructor(
    private readonly dir: string,
    private readonly opts: SourceOptions,
  ) {
    this.description = `fhir:${dir}`;
  }

  async *records(): AsyncGenerator<NormalizedRecord> {
    this.rows = new RowTally(this.opts.strict);
    this.facts = new FactTally(this.opts.strict);
    const ix = await this.index();
    for (const p of ix.problems) this.facts.skip(p.location, p.problem);
    const resolve = (ref: string | null): string | null => (ref === null ? null : (ix.aliases.get(ref) ?? ref));
    const events = regroup(ix.eventsByEncounter, resolve);
    const byPatient = regroup(ix.conditionsByPatient, resolve);
    for (const k of ix.eventsByEncounter.keys()) {
      const key = resolve(k)!;
      if (!ix.encounters.has(key)) this.facts.skipMany(ix.eventsByEncounter.get(k)!.length, key, { category: 'fact-of-unknown-visit', reason: `Observations name ${key}, which is not in the directory` });
    }
    const ctx = { idPrefix: `fhir:${this.dir.replace(/\/+$/, '').split('/').pop() ?? 'fhir'}`, labelRule: 'primary' as const, tertiles: ix.tertiles.tertiles() };
    for (const key of [...ix.encounters.keys()].sort(numeric.compare)) {
      const enc = ix.encounters.get(key)!;
      this.rows.read();
      const visit = assemble(enc, ix, { events: events.get(key) ?? [], conditions: byPatient.get(resolve(enc.patientRef) ?? '') ?? [] }, resolve);
      if (visit === null) {
        this.rows.skip(enc.location, { category: 'visit-without-date', reason: `${key}: no period.start` });
        continue;
      }
      const out = visitToRecord(visit, ctx);
      if (!out.ok) {
        this.rows.skip(enc.location, out.error);
        continue;
      }
      for (const p of out.value.issues) this.facts.skip(p.location, p.problem);
      this.rows.emit();
      yield out.value.record;
    }
  }

  private async index(): Promise<FhirIndex> {
    const ix = emptyIndex();
    for await (const item of readFhirDir(this.dir)) {
      if (item.kind === 'bad') {
        this.facts.skip(item.location, item.problem);
        continue;
      }
      const r = item.resource;
      if (item.fullUrl !== null && r.id !== undefined) ix.aliases.set(item.fullUrl, `${r.resourceType}/${r.id}`);
      if (r.id === undefined) {
        this.facts.skip(item.location, { category: 'resource-without-id', reason: `${r.resourceType} without an id` });
        continue;
      }
      switch (r.resourceType) {
        case 'Patient':
          addPatient(ix, r as Patient);
          break;
        case 'Encounter':
          addEncounter(ix, r as Encounter, item.location);
          break;
        case 'Condition':
          addCondition(ix, r as Condition, item.location);
          break;
        case 'Observation':
          addObservation(ix, r as Observation, item.location);
          break;
        default:
          // Read but not part of the record model (Procedure, MedicationRequest…): counted, not silent.
          this.facts.skip(item.location, { category: 'unsupported-resource', reason: `${r.resourceType} is not read (Patient, Encounter, Condition, Observation are)` });
      }
    }
    return ix;
  }

  summary(): ImportSummary {
    return { ...this.rows.summary(), factsSkipped: this.facts.summary() };
  }

  async close(): Promise<void> {
    // Files are opened and closed within records(): nothing stays open.
  }
}

/** Re-keys a map by resolved reference (urn:uuid fullUrls -> Type/id), merging lists that meet. */
function regroup<V>(m: Map<string, V[]>, resolve: (r: string | null) => string | null): Map<string, V[]> {
  const out = new Map<string, V[]>();
  for (const [k, v] of m) {
    const key = resolve(k) ?? k;
    out.set(key, [...(out.get(key) ?? []), ...v]);
  }
  return out;
}

function birthOf(d: string): { year: number; month: number | null; day: number | null } {
  const [y, m, day] = d.split('-').map(Number);
  return { year: y!, month: m ?? null, day: day ?? null };
}

/**
 * The encounter's facts in the OMOP model: its encounter-diagnoses are label candidates
 * (Encounter.diagnosis rank 1 = primary), problem-list items of the patient that started
 * before it or name it, and conditions of the patient's other encounters that started before
 * it, are history. null when the encounter has no start date.
 */
function assemble(enc: FhirEncounter, ix: FhirIndex, of: { events: VisitFacts['events']; conditions: FhirCondition[] }, resolve: (r: string | null) => string | null): VisitFacts | null {
  if (enc.startDate === null) return null;
  const patientRef = resolve(enc.patientRef);
  const patient = patientRef === null ? undefined : ix.patients.get(patientRef);
  const conditions: ConditionFact[] = [];
  const history: ConditionFact[] = [];
  const mine = `Encounter/${enc.id}`;
  const ranks = new Map([...enc.ranks].map(([k, v]) => [resolve(k)!, v] as const));
  for (const c of of.conditions) {
    const here = resolve(c.encounterRef) === mine;
    if (here && !c.problemList) conditions.push({ ...c.fact, primaryRank: ranks.get(c.ref) === 1 ? 0 : 2 });
    else if ((here && c.problemList) || (c.fact.startDate !== '' && c.fact.startDate < enc.startDate)) history.push(c.fact);
  }
  return {
    visitId: enc.id,
    location: enc.location,
    person: patient === undefined || patient.birthDate === null ? null : { birthDate: birthOf(patient.birthDate), sex: patient.sex },
    startDate: enc.startDate,
    conditions,
    history,
    events: of.events,
  };
}
