import type { Condition, DiagnosticReport, DocumentReference, Encounter, Observation, Patient } from '@medplum/fhirtypes';
import type { NormalizedRecord, RecordNote } from '../../domain/record.js';
import { RowTally } from '../row-issues.js';
import type { ImportSummary, RecordSource, SourceOptions } from '../types.js';
import type { Concept, ConditionFact, VisitFacts } from '../omop/clinical-facts.js';
import type { VocabularyConcept } from '../../clinical-text/vocabulary.js';
import { FactTally } from '../omop/fact-tally.js';
import { binConcepts, type NumericCode } from '../binning/bin-concepts.js';
import { binByInterpretation, binByRange } from '../binning/bins.js';
import { conceptKey, visitToRecord } from '../omop/visit-to-record.js';
import { readFhirDir } from './fhir-files.js';
import { addCondition, addDiagnosticReport, addDocumentReference, addEncounter, addObservation, addPatient, emptyIndex, type FhirCondition, type FhirEncounter, type FhirIndex } from './fhir-index.js';
import type { FhirNote } from './fhir-notes.js';

const numeric = new Intl.Collator('en', { numeric: true });
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

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
    const ix = await this.index(this.facts);
    for (const p of ix.problems) this.facts.skip(p.location, p.problem);
    const resolve = (ref: string | null): string | null => (ref === null ? null : (ix.aliases.get(ref) ?? ref));
    const events = regroup(ix.eventsByEncounter, resolve);
    const byPatient = regroup(ix.conditionsByPatient, resolve);
    for (const k of ix.eventsByEncounter.keys()) {
      const key = resolve(k)!;
      if (!ix.encounters.has(key)) this.facts.skipMany(ix.eventsByEncounter.get(k)!.length, key, { category: 'fact-of-unknown-visit', reason: `Observations name ${key}, which is not in the directory` });
    }
    const notes = this.placeNotes(ix, resolve);
    const ctx = { idPrefix: `fhir:${this.dir.replace(/\/+$/, '').split('/').pop() ?? 'fhir'}`, labelRule: 'primary' as const, tertiles: ix.tertiles.tertiles() };
    for (const key of [...ix.encounters.keys()].sort(numeric.compare)) {
      const enc = ix.encounters.get(key)!;
      this.rows.read();
      const visit = assemble(enc, ix, { events: events.get(key) ?? [], conditions: byPatient.get(resolve(enc.patientRef) ?? '') ?? [], notes: notes.get(key) ?? [] }, resolve);
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

  /**
   * The concepts of the set's Observations (not labs: binned values no note names) and Conditions,
   * with their display names, for the note reader (RecordSource.codedConcepts), and the bins of its
   * numeric values (as the OMOP source gives them). One more pass over the files; its problems
   * are counted by records(), not here.
   */
  async codedConcepts(): Promise<VocabularyConcept[]> {
    const ix = await this.index(new FactTally(false));
    const concepts = new Map<string, Concept>();
    for (const events of ix.eventsByEncounter.values()) for (const e of events) if (e.table === 'observation') concepts.set(conceptKey(e.concept), e.concept);
    for (const conditions of ix.conditionsByPatient.values()) for (const c of conditions) concepts.set(conceptKey(c.fact.concept), c.fact.concept);
    const named = [...concepts].sort((a, b) => a[0].localeCompare(b[0])).map(([code, c]) => ({ vocabulary: c.vocabulary, code, label: c.name, forms: [c.name], xrefs: [], parents: [] }));
    return [...named, ...binConcepts(numericCodes(ix), ix.tertiles.tertiles())];
  }

  private async index(facts: FactTally): Promise<FhirIndex> {
    const ix = emptyIndex();
    for await (const item of readFhirDir(this.dir)) {
      if (item.kind === 'bad') {
        facts.skip(item.location, item.problem);
        continue;
      }
      const r = item.resource;
      if (item.fullUrl !== null && r.id !== undefined) ix.aliases.set(item.fullUrl, `${r.resourceType}/${r.id}`);
      if (r.id === undefined) {
        facts.skip(item.location, { category: 'resource-without-id', reason: `${r.resourceType} without an id` });
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
        case 'DocumentReference':
          addDocumentReference(ix, r as DocumentReference, item.location);
          break;
        case 'DiagnosticReport':
          addDiagnosticReport(ix, r as DiagnosticReport, item.location);
          break;
        default:
          // Read but not part of the record model (Procedure, MedicationRequest…): counted, not silent.
          facts.skip(item.location, { category: 'unsupported-resource', reason: `${r.resourceType} is not read (Patient, Encounter, Condition, Observation, DocumentReference, DiagnosticReport are)` });
      }
    }
    return ix;
  }

  /**
   * Each note on its encounter: the one it names, else the patient's encounter whose period
   * holds the note's date (the latest start, then the lowest id), as the OMOP source places a
   * note without a visit_occurrence_id. Notes of an encounter in date (undated last), then resource id order.
   */
  private placeNotes(ix: FhirIndex, resolve: (r: string | null) => string | null): Map<string, RecordNote[]> {
    const byPatient = new Map<string, FhirEncounter[]>();
    for (const enc of ix.encounters.values()) {
      const p = resolve(enc.patientRef);
      if (p !== null) pushTo(byPatient, p, enc);
    }
    const placed = new Map<string, FhirNote[]>();
    for (const n of ix.notes) {
      let key = resolve(n.encounterRef);
      if (key !== null && !ix.encounters.has(key)) {
        this.facts.skip(n.location, { category: 'fact-of-unknown-visit', reason: `${n.note.origin} names ${key}, which is not in the directory` });
        continue;
      }
      if (key === null) {
        const date = n.date;
        const holding = date === null ? [] : (byPatient.get(resolve(n.patientRef) ?? '') ?? []).filter((e) => e.startDate !== null && e.startDate <= date && date <= (e.endDate ?? e.startDate));
        holding.sort((a, b) => (a.startDate! < b.startDate! ? 1 : a.startDate! > b.startDate! ? -1 : numeric.compare(a.id, b.id)));
        if (holding[0] === undefined) {
          this.facts.skip(n.location, { category: 'note-without-visit', reason: `${n.note.origin}: no encounter named, and none of its patient holds its date` });
          continue;
        }
        key = `Encounter/${holding[0].id}`;
      }
      pushTo(placed, key, n);
    }
    const out = new Map<string, RecordNote[]>();
    for (const [key, list] of placed) {
      list.sort((a, b) => cmp(a.date ?? '~', b.date ?? '~') || numeric.compare(a.resourceId, b.resourceId) || cmp(a.note.origin, b.note.origin));
      out.set(key, list.map((n) => n.note));
    }
    return out;
  }

  summary(): ImportSummary {
    return { ...this.rows.summary(), factsSkipped: this.facts.summary() };
  }

  async close(): Promise<void> {
    // Files are opened and closed within records(): nothing stays open.
  }
}

function pushTo<V>(m: Map<string, V[]>, k: string, v: V): void {
  const list = m.get(k);
  if (list === undefined) m.set(k, [v]);
  else list.push(v);
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
function assemble(enc: FhirEncounter, ix: FhirIndex, of: { events: VisitFacts['events']; conditions: FhirCondition[]; notes: RecordNote[] }, resolve: (r: string | null) => string | null): VisitFacts | null {
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
    person: patient === undefined || patient.birthDate === null ? null : { key: patientRef!, birthDate: birthOf(patient.birthDate), sex: patient.sex },
    startDate: enc.startDate,
    conditions,
    history,
    events: of.events,
    notes: of.notes,
  };
}

/** The numeric codes of the index's visits: ranged when a value is binned by range or interpretation, the commonest unit of the others. */
function numericCodes(ix: FhirIndex): NumericCode[] {
  const codes = new Map<string, NumericCode & { units: Map<string, number> }>();
  for (const events of ix.eventsByEncounter.values()) {
    for (const e of events) {
      if (e.value.kind !== 'number') continue;
      const key = conceptKey(e.concept);
      const c = codes.get(key) ?? { key, vocabulary: e.concept.vocabulary, name: e.concept.name, ranged: false, unit: null, units: new Map<string, number>() };
      codes.set(key, c);
      const v = e.value;
      if (binByRange(v.value, v.range) ?? (v.interpretation !== null ? binByInterpretation(v.interpretation) : null)) c.ranged = true;
      else if (v.unit !== null) c.units.set(v.unit, (c.units.get(v.unit) ?? 0) + 1);
    }
  }
  // The commonest unit, ties to the first in sort order (PostgreSQL's mode() over the sorted units, as the OMOP source).
  return [...codes.values()].map(({ units, ...c }) => ({ ...c, unit: [...units].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null }));
}
