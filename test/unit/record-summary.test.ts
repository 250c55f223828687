import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSpool, scanRecords } from '../../kg-build/scan-records.js';
import { EMERGENT_CANDIDATE } from '../../src/clinical-text/concepts/tiers.js';
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

describe('a similar past record as a clinician reads it (presentation/record-summary.ts, kg-build/scan-records.ts)', () => {
  it('the build\'s spool: a DDXPlus patient is its age and sex, then its present findings by clinical label, never the questionnaire nor an emergent candidate', async () => {
    const voice = shippedVoice();
    const records = await firstRecords(40);
    assert.ok(records.length >= 40);
    // One record also carries an emergent candidate phrase (maybe one patient's words): never in a summary.
    const candidate = { text: 'peppery rash', polarity: 'present' as const, code: null, valueCode: null, question: null, valueText: 'peppery rash', antecedent: null, concept: { vocabulary: EMERGENT_CANDIDATE, forms: ['peppery rash'] } };
    const input = records.map((r, i) => (i === 0 ? { ...r, findings: [...r.findings, candidate] } : r));
    const dir = await mkdtemp(join(tmpdir(), 'dx-summary-'));
    try {
      const spoolPath = join(dir, 'spool.jsonl');
      await scanRecords({ records: (async function* () { yield* input; })(), spoolPath });
      let n = 0;
      for await (const row of readSpool(spoolPath)) {
        const r = records[n++]!;
        const [who, findings] = row.summary.split(': ');
        assert.equal(who, `${r.sex === 'M' ? 'Male' : 'Female'}, ${r.age}`);
        const labels = findings!.split('; ');
        for (const l of labels) assert.ok(isClinicalLabel(l), `"${l}" of ${r.id} is a clinical label`);
        assert.doesNotMatch(row.summary, /\?|\byou\b|\byour\b|: yes\b|peppery/i, `${r.id}: ${row.summary}`);
        // Every present finding is named, once; absent ones ("pain radiates to: nowhere") are not.
        assert.deepEqual(labels, [...new Set(r.findings.filter((f) => f.polarity === 'present').map((f) => voice.label(f)))]);
      }
      assert.equal(n, records.length);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('unknown age or sex is left out, each label is named once, and a record with no present finding says so', () => {
    assert.equal(recordSummary({ age: null, sex: null }, ['Fever', 'Fever']), 'Fever');
    assert.equal(recordSummary({ age: 54, sex: null }, []), '54: no findings recorded');
    assert.equal(recordSummary({ age: null, sex: 'F' }, []), 'Female: no findings recorded');
  });
});
