import { strict as assert } from 'node:assert';
import { recordSummary } from '../../src/presentation/record-summary.js';
import { shippedVoice } from '../../src/presentation/shipped-voice.js';
import { isClinicalLabel } from '../../src/presentation/voice-checks.js';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';

async function firstRecords(n: number): Promise<NormalizedRecord[]> {
  const src = await openSource(parseSourceSpec('ddxplus:datasets/ddxplus', { mapping: null }), { strict: true });
  const out: NormalizedRecord[] = [];
  for await (const r of src.records()) if (out.push(r) >= n) break;
  return out;
}

describe('a similar past record as a clinician reads it (presentation/record-summary.ts)', () => {
  it('a DDXPlus patient: age and sex, then its present findings by clinical label, never the questionnaire', async () => {
    const voice = shippedVoice();
    const records = await firstRecords(40);
    assert.ok(records.length >= 40);
    for (const r of records) {
      const s = recordSummary(r, (f) => voice.label(f));
      const [who, findings] = s.split(': ');
      assert.equal(who, `${r.sex === 'M' ? 'Male' : 'Female'}, ${r.age}`);
      const labels = findings!.split('; ');
      assert.equal(new Set(labels).size, labels.length, 'each label once');
      for (const l of labels) assert.ok(isClinicalLabel(l), `"${l}" of ${r.id} is a clinical label`);
      assert.doesNotMatch(s, /\?|\byou\b|\byour\b|: yes\b/i, `${r.id}: ${s}`);
      // Every present finding is named; absent ones ("pain radiates to: nowhere") are not.
      assert.equal(labels.length, new Set(r.findings.filter((f) => f.polarity === 'present').map((f) => voice.label(f))).size);
    }
  });

  it('unknown age or sex is left out, and a record with no present finding says so', () => {
    const label = (f: { text: string }) => f.text;
    const fever = { text: 'Fever', code: null, valueCode: null, polarity: 'present' as const };
    assert.equal(recordSummary({ age: null, sex: null, findings: [fever, fever] }, label), 'Fever');
    assert.equal(recordSummary({ age: 54, sex: null, findings: [] }, label), '54: no findings recorded');
    assert.equal(recordSummary({ age: null, sex: 'F', findings: [{ ...fever, polarity: 'absent' }] }, label), 'Female: no findings recorded');
  });
});
