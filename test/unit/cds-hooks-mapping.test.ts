import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { chartResources, chartToInput } from '../../src/cds-hooks/chart-to-input.js';
import { isCantMiss, percent, resultCards } from '../../src/cds-hooks/cards.js';
import { DEFAULT_CANT_MISS } from '../../src/cds-hooks/cards.js';
import { fillTemplate } from '../../src/cds-hooks/services.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { fakeResult } from './http-fakes.js';
import { DEFAULT_OPTIONS, type DiagnoseInput } from '../../src/query/contracts.js';

/**
 * A chart of the synthetic FHIR set (datasets/fhir-synthetic, patient p4: a diabetes problem
 * list item, an influenza encounter e5, a UTI encounter e6, the triage note n2 of no encounter)
 * read as a hook's prefetch, against the record the `fhir:` source builds of the same encounter.
 */
const bundle = (name: string): Bundle => JSON.parse(readFileSync(`datasets/fhir-synthetic/bundles/${name}.json`, 'utf8')) as Bundle;
const p4 = bundle('p4');
const notes = bundle('notes');
const ofP4 = (notes.entry ?? []).map((e) => e.resource!).filter((r) => (r as { subject?: { reference?: string } }).subject?.reference === 'Patient/p4');
// As an EHR's prefetch: a Patient, and searchset Bundles per type.
const searchset = (type: string, rs: Resource[]): Bundle => ({ resourceType: 'Bundle', type: 'searchset', entry: rs.filter((r) => r.resourceType === type).map((resource) => ({ resource })) });
const all = (p4.entry ?? []).map((e) => e.resource!);
const prefetch = {
  patient: all.find((r) => r.resourceType === 'Patient'),
  conditions: searchset('Condition', all),
  observations: searchset('Observation', all),
  notes: searchset('DocumentReference', ofP4),
};

describe('CDS Hooks: a chart as a diagnose input (the fhir: source mapping)', () => {
  it('reads Bundles and single resources, skipping nulls (a key the client could not fill)', () => {
    const rs = chartResources([prefetch.patient, prefetch.conditions, null, prefetch.observations]);
    assert.equal(rs.filter((r) => r.resourceType === 'Patient').length, 1);
    assert.equal(rs.filter((r) => r.resourceType === 'Condition').length, 3);
    assert.equal(rs.length, 1 + 3 + 21);
  });

  it('the encounter e6 gives the findings of its build record, minus its diagnosis and the tertile bins', async () => {
    const chart = chartToInput(chartResources(Object.values(prefetch)), { patientId: 'p4', encounterId: 'e6', today: '2024-01-01' });
    const src = await openSource(parseSourceSpec('fhir:datasets/fhir-synthetic/bundles'), { strict: false });
    let record: NormalizedRecord | undefined;
    for await (const r of src.records()) if (r.id.endsWith(':e6')) record = r;
    await src.close();
    assert.ok(record !== undefined);
    const key = (f: { code: string | null; valueCode: string | null; polarity: string }) => `${f.code}|${f.valueCode ?? ''}|${f.polarity}`;
    // Tertile bins need the build's cut points (not known to the mapping): those values give no coded finding...
    const expected = record.findings.filter((f) => !/^T[123]$/.test(f.valueCode ?? '')).map(key).sort();
    assert.deepEqual(chart.findings.filter((f) => !f.measured).map(key).sort(), expected);
    // ...but heart and breathing rates are read as the same values written in a note are: at query
    // time they fall in the KG's thirds (match-measured.ts). A body temperature has no measurement rule.
    const thirds = record.findings.filter((f) => /^T[123]$/.test(f.valueCode ?? '')).map((f) => f.code!.replace('LOINC:', '')).filter((c) => c !== '8310-5').sort();
    assert.deepEqual(chart.findings.filter((f) => f.measured).map((f) => f.measured!.loinc).sort(), thirds);
    assert.ok(thirds.length > 0);
    assert.ok(chart.findings.some((f) => f.code === 'SNOMED:44054006' || /diabetes/i.test(f.text)), 'problem-list diabetes as history');
    assert.ok(chart.findings.every((f) => !/N39|urinary tract infect/i.test(`${f.code} ${f.text}`)), 'the diagnosis of the visit is not evidence');
    assert.equal(chart.skipped['diagnosis-of-this-visit'], 1);
    assert.equal(chart.skipped['other-encounter'], 9, "e5's observations are another visit");
    assert.ok((chart.skipped['numeric-without-bins'] ?? 0) >= 1, 'body temperature: no range, no tertiles, no measurement rule');
    assert.equal(chart.sex, record.sex);
    assert.equal(chart.notes.length, 1, 'the triage note n2 names no encounter: read with the chart');
    assert.match(chart.notes[0]!, /\S/);
  });

  it('without an encounter named, the encounters the Observations name are the visit: their diagnoses are left out', () => {
    const chart = chartToInput(chartResources(Object.values(prefetch)), { patientId: 'p4', encounterId: null, today: '2024-01-01' });
    assert.equal(chart.skipped['diagnosis-of-this-visit'], 2);
    assert.ok(chart.findings.some((f) => /Cough/i.test(f.text)) && chart.findings.some((f) => /Dysuria/i.test(f.text)));
  });

  it("another patient's resources in the prefetch are never read into this chart", () => {
    const p2 = (bundle('p2').entry ?? []).map((e) => e.resource!);
    const mixed = chartToInput(chartResources([...Object.values(prefetch), searchset('Observation', p2), p2[0]]), { patientId: 'p4', encounterId: 'e6', today: '2024-01-01' });
    const alone = chartToInput(chartResources(Object.values(prefetch)), { patientId: 'p4', encounterId: 'e6', today: '2024-01-01' });
    assert.deepEqual(mixed.findings, alone.findings);
    assert.equal(mixed.sex, alone.sex);
    assert.equal(mixed.skipped['other-patient'], 15, "p2's Patient and 14 Observations");
  });

  it('an empty chart gives no finding; the age is taken at `today`', () => {
    const chart = chartToInput(chartResources([{ resourceType: 'Patient', id: 'x', birthDate: '1980-06-15', gender: 'female' }]), { patientId: 'x', encounterId: null, today: '2024-06-14' });
    assert.deepEqual([chart.findings, chart.notes, chart.age, chart.sex], [[], [], 43, 'F']);
  });
});

describe('CDS Hooks: cards', () => {
  const opts = { cantMiss: DEFAULT_CANT_MISS, cantMissMin: 0.02, copilotUrl: 'https://dx.example.org/', sourceLabel: 'dxgraph', shown: 5, questions: 3 };
  const input = { text: null, findings: [], age: null, sex: null, options: DEFAULT_OPTIONS };

  it('small probabilities read "<1%", never "0%"', () => {
    assert.deepEqual([percent(0.004), percent(0.005), percent(0.62), percent(0.994), percent(0.996)], ['<1%', '1%', '62%', '99%', '>99%']);
  });

  it("can't-miss names match as words: NSTEMI, pulmonary embolism; not 'nonstemi…' fragments", () => {
    assert.ok(isCantMiss('Pulmonary embolism', DEFAULT_CANT_MISS) && isCantMiss('Possible NSTEMI / STEMI', DEFAULT_CANT_MISS));
    assert.ok(!isCantMiss('URTI', DEFAULT_CANT_MISS) && !isCantMiss('Bronchitis', DEFAULT_CANT_MISS));
  });

  it('a card: summary under 140 chars, info indicator, source label, absolute link; warning with a can\'t-miss in the top 3', () => {
    const r = fakeResult(input);
    const [card] = resultCards(r, opts);
    assert.ok(card!.summary.length < 140 && card!.summary.startsWith('Differential: Disease A'));
    assert.equal(card!.indicator, 'info');
    assert.deepEqual(card!.links, [{ label: 'Open a consultation in the dxgraph copilot', url: 'https://dx.example.org/', type: 'absolute' }]);
    assert.match(card!.detail!, /Any fever\?/);
    const long = 'Acute pulmonary embolism, saddle, bilateral, with right heart strain and a long qualifier';
    const r3 = { ...r.differential[1]!, disease: 'Another disease with a rather long name to fill the summary', score: 0.3 };
    const urgent = resultCards({ ...r, differential: [r.differential[0]!, r3, { ...r.differential[1]!, disease: long, score: 0.03 }] }, opts)[0]!;
    assert.equal(urgent.indicator, 'warning');
    assert.ok(urgent.summary.length < 140);
    assert.match(urgent.summary, /^Differential: Disease A \S+%, Acute pulmonary embolism, saddle, bilateral, with right heart strain and a long qualifier 3% \(can't miss\)$/, 'the can\'t-miss name survives the length limit');
    assert.match(urgent.detail!, /Can't miss:/);
    // The same can't-miss at "<1%" is no warning: a card that warns on every chart is ignored.
    const faint = resultCards({ ...r, differential: [r.differential[0]!, r3, { ...r.differential[1]!, disease: long, score: 0.001 }] }, opts)[0]!;
    assert.equal(faint.indicator, 'info');
    assert.doesNotMatch(faint.detail!, /Can't miss:/);
    assert.match(faint.detail!, /<1%/);
  });

  it('asks only questions to the clinician about the patient (issue 48): one in the patient\'s voice is left off', () => {
    const r = fakeResult(input);
    const followUps = ['Are you a former smoker?', 'Former smoker?', 'Characterize your pain:', 'Pain worse with coughing or straining?'].map((text, i) => ({ id: `q${i}`, featureId: `f${i}`, text, score: 1, ranker: 'information-gain' }));
    const detail = resultCards({ ...r, followUps }, opts)[0]!.detail!;
    assert.match(detail, /- Former smoker\?\n- Pain worse with coughing or straining\?/);
    assert.doesNotMatch(detail, /you|Characterize/);
  });

  it('no card when nothing matched the KG: no guess', () => {
    const r = fakeResult(input);
    assert.deepEqual(resultCards({ ...r, insufficient: { reason: 'no-finding-matched', message: 'x' } }, opts), []);
  });

  it('prefetch templates are filled from the context; a token it lacks gives null', () => {
    assert.equal(fillTemplate('Observation?patient={{context.patientId}}&encounter={{context.encounterId}}', { patientId: 'p 4', encounterId: 'e6' }), 'Observation?patient=p%204&encounter=e6');
    assert.equal(fillTemplate('Observation?encounter={{context.encounterId}}', { patientId: 'p4' }), null);
  });
});

describe('CDS Hooks: the hook use case', () => {
  it("a chart larger than DXGRAPH_MAX_FINDINGS keeps the visit's findings first, not a 400", async () => {
    const { runHook } = await import('../../src/cds-hooks/run-hook.js');
    const { serviceById } = await import('../../src/cds-hooks/services.js');
    const seen: DiagnoseInput[] = [];
    const deps = {
      query: { diagnose: async (i: DiagnoseInput) => (seen.push(i), fakeResult(i)) },
      prepareNote: async () => (t: string) => t,
      cards: { cantMiss: DEFAULT_CANT_MISS, copilotUrl: 'https://dx.example.org/', sourceLabel: 'dxgraph', shown: 5, questions: 3 },
      fhir: { timeoutMs: 1000, allowedServers: null },
      maxTextChars: 2000, maxFindings: 3, dropDemographics: true, today: () => '2024-01-01',
    };
    const req = { hook: 'patient-view', hookInstance: 'h', context: { userId: 'u', patientId: 'p4', encounterId: 'e6' }, prefetch: { ...prefetch, notes: null } };
    const out = await runHook(req, serviceById('dxgraph-differential')!, { ...deps, fetchImpl: undefined } as never);
    // notes: null and no fhirServer: the service cannot obtain them.
    assert.deepEqual(out, { ok: false, error: { kind: 'precondition', message: 'prefetch.notes is missing and no fhirServer was given to read it from' } });
    const empty = { resourceType: 'Bundle', type: 'searchset', entry: [] };
    const done = await runHook({ ...req, prefetch: { ...prefetch, notes: empty } }, serviceById('dxgraph-differential')!, deps as never);
    assert.ok(done.ok && done.value.cards.length === 1);
    assert.equal(seen[0]!.findings.length, 3);
    assert.ok(seen[0]!.findings.every((f) => !f.text.startsWith('history of')), "the visit's own findings kept");
    assert.deepEqual([seen[0]!.age, seen[0]!.sex], [null, null], 'DXGRAPH_DROP_DEMOGRAPHICS');
  });
});
