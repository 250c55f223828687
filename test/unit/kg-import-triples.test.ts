import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importTriples, UNKNOWN_PREVALENCE } from '../../kg-build/import-triples.js';
import type { ClusteredDisease } from '../../kg-build/cluster-diseases.js';

const diseases: ClusteredDisease[] = [
  { id: 'dis:lumbar-spondylosis', name: 'Lumbar spondylosis', icd10: null, recordCount: 3, aliases: ['lumbar_spondylosis_nos'] },
  { id: 'dis:sciatica', name: 'Sciatica', icd10: null, recordCount: 3, aliases: [] },
];

function file(name: string, text: string): string {
  const p = join(mkdtempSync(join(tmpdir(), 'kg-triples-')), name);
  writeFileSync(p, text);
  return p;
}

describe('kg-build import-triples (external L4a)', () => {
  it('CSV: subjects matched by name or alias in any spelling; unknown subjects counted, not guessed', async () => {
    const path = file('t.csv', 'subject,relation,object,prevalence\nlumbar_spondylosis,has_symptom,stiffness_or_pain_in_the_lower_back,0.8\nLUMBAR SPONDYLOSIS NOS,relieved_by,sitting,\nsciatica,worsened_by,sitting,0.7\nmigraine,has_symptom,headache,\n');
    const t = await importTriples({ path, diseases });
    assert.equal(t.rows, 4);
    assert.equal(t.unmatched, 1);
    assert.deepEqual(t.features.map((f) => f.text).sort(), ['sitting', 'stiffness or pain in the lower back']);
    assert.ok(t.features.every((f) => f.kind === 'augmented'));
    const sitting = t.features.find((f) => f.text === 'sitting')!;
    const edges = t.manifestations.filter((m) => m.featureId === sitting.id);
    assert.deepEqual(edges.map((e) => e.diseaseId).sort(), ['dis:lumbar-spondylosis', 'dis:sciatica']);
    assert.equal(edges.find((e) => e.diseaseId === 'dis:lumbar-spondylosis')?.prevalence, UNKNOWN_PREVALENCE);
    assert.equal(edges.find((e) => e.diseaseId === 'dis:sciatica')?.prevalence, 0.7);
    assert.ok(t.manifestations.every((m) => m.source === 'triples'));
  });

  it('JSONL works the same; a row that is not a triple is an input error with its line', async () => {
    const ok = await importTriples({ path: file('t.jsonl', '{"subject":"Sciatica","relation":"has_symptom","object":"leg pain"}\n\n'), diseases });
    assert.equal(ok.manifestations.length, 1);
    await assert.rejects(importTriples({ path: file('bad.jsonl', '{"subject":"Sciatica","relation":"has_symptom","object":"x"}\n{"subject":"Sciatica"}\n'), diseases }), /bad\.jsonl:2: not a \(subject, relation, object\) triple/);
  });
});
