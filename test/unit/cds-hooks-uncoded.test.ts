import { strict as assert } from 'node:assert';
import type { Observation, Resource } from '@medplum/fhirtypes';
import { DEFAULT_CANT_MISS } from '../../src/cds-hooks/cards.js';
import { phraseOf } from '../../src/cds-hooks/read-uncoded.js';
import { runHook } from '../../src/cds-hooks/run-hook.js';
import { serviceById } from '../../src/cds-hooks/services.js';
import { InputError } from '../../src/errors.js';
import type { DiagnoseInput, DiagnoseResult, FeatureMatch, InputFinding } from '../../src/query/contracts.js';
import { fakeResult } from './http-fakes.js';

/**
 * Issue 48 item 4: a chart fact whose code the KG does not know is read through its display, as a
 * note phrase. The fake KG knows one code (cough) and reads two words of text (throat, fever).
 */
const KNOWN = 'SNOMED:49727002';
const WORDS = ['throat', 'fever'];

function fakeKg() {
  const calls: DiagnoseInput[] = [];
  const diagnose = async (input: DiagnoseInput): Promise<DiagnoseResult> => {
    calls.push(input);
    const findings: InputFinding[] = [...input.findings];
    const text = input.text ?? '';
    for (const w of WORDS) {
      const at = text.toLowerCase().indexOf(w);
      if (at >= 0) findings.push({ text: w, polarity: 'present', code: null, valueCode: null, span: { start: at, end: at + w.length } });
    }
    if (findings.length === 0) throw new InputError('no findings: give a non-empty text or at least one finding', { field: 'text' });
    const matches: FeatureMatch[] = findings.flatMap((f, i): FeatureMatch[] =>
      f.code === KNOWN ? [{ findingIndex: i, featureId: 'feat:cough', featureText: 'Cough', similarity: 1, polarity: f.polarity, via: 'code' as const }] : f.span ? [{ findingIndex: i, featureId: `feat:${f.text}`, featureText: f.text, similarity: 0.9, polarity: f.polarity, via: 'embedding' as const }] : [],
    );
    const base = fakeResult(input);
    return { ...base, insufficient: matches.length === 0 ? { reason: 'no-finding-matched', message: 'nothing matched' } as never : null, trace: { ...base.trace, findings, matches } };
  };
  return { calls, query: { diagnose } };
}

const observation = (code: string, display: string, value = true): Observation => ({ resourceType: 'Observation', id: code, status: 'final', subject: { reference: 'Patient/p1' }, code: { coding: [{ system: 'http://snomed.info/sct', code, display }] }, valueBoolean: value });
const chart = (rs: Resource[]) => ({ hook: 'patient-view', hookInstance: 'h', context: { userId: 'u', patientId: 'p1' }, prefetch: { patient: { resourceType: 'Patient', id: 'p1' }, conditions: null, observations: { resourceType: 'Bundle', type: 'searchset', entry: rs.map((resource) => ({ resource })) }, notes: { resourceType: 'Bundle', type: 'searchset', entry: [] } } });

function deps(query: ReturnType<typeof fakeKg>['query']) {
  return {
    query, prepareNote: async () => (t: string) => t,
    cards: { cantMiss: DEFAULT_CANT_MISS, cantMissMin: 0.02, copilotUrl: 'https://dx.example.org/', sourceLabel: 'dxgraph', shown: 5, questions: 3 },
    fhir: { timeoutMs: 1000, allowedServers: null }, maxTextChars: 2000, maxFindings: 50, dropDemographics: false, today: () => '2024-01-01',
  };
}

describe('CDS Hooks reads what it cannot code (issue 48)', () => {
  const service = serviceById('dxgraph-differential')!;

  it('facts of unknown codes become note phrases; the KG\'s codes stay coded; the card lists what it read and what it did not', async () => {
    const kg = fakeKg();
    const req = chart([observation('267102003', 'Sore throat'), observation('50177009', 'Fever symptom'), observation('49727002', 'Cough'), observation('80313002', 'Palpitations'), observation('271807003', 'Rash', false)]);
    const out = await runHook({ ...req, prefetch: { ...req.prefetch, conditions: { resourceType: 'Bundle', type: 'searchset', entry: [] } } } as never, service, deps(kg.query) as never);
    assert.ok(out.ok);
    const last = kg.calls.at(-1)!;
    assert.deepEqual(last.findings.map((f) => f.code), [KNOWN], 'the code the KG knows stays a coded finding');
    assert.equal(last.text, 'Sore throat.\nFever symptom.\nPalpitations.\nNo rash.');
    assert.equal(last.options.reasoner, 'evidence', 'a card never waits on an LLM');
    assert.equal(out.value.cards.length, 1);
    const detail: string = out.value.cards[0]!.detail!;
    assert.match(detail, /\*\*Read from the chart:\*\* Cough, throat, fever/);
    assert.match(detail, /\*\*Not read \(nothing in the knowledge graph matched\):\*\* Palpitations, Rash/);
  });

  it('a chart with nothing readable still gets no card', async () => {
    const kg = fakeKg();
    const req = chart([observation('80313002', 'Palpitations'), observation('1234567', 'Zzz local code')]);
    const out = await runHook({ ...req, prefetch: { ...req.prefetch, conditions: { resourceType: 'Bundle', type: 'searchset', entry: [] } } } as never, service, deps(kg.query) as never);
    assert.deepEqual(out, { ok: true, value: { cards: [] } });
  });

  it('a fact reads as a note would write it', () => {
    assert.equal(phraseOf({ text: 'Chest pain', polarity: 'present', code: 'SNOMED:1', valueCode: null }), 'Chest pain.');
    assert.equal(phraseOf({ text: 'Dyspnea', polarity: 'absent', code: 'SNOMED:2', valueCode: null }), 'No dyspnea.');
    assert.equal(phraseOf({ text: 'history of Palpitations', polarity: 'present', code: 'SNOMED:3', valueCode: null }), 'History of Palpitations.');
  });
});
