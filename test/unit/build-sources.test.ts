import assert from 'node:assert/strict';
import { sourceSpecs } from '../../src/cli/build-command.js';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { InputError } from '../../src/errors.js';
import { ConcatSource } from '../../src/sources/concat-source.js';
import type { DeclaredEvidence, ImportSummary, RecordSource } from '../../src/sources/types.js';

/**
 * One KG from several sources (issue 24): `--source` repeated, each tabular source taking the
 * next `--mapping`, and the sources read one after the other as one (ConcatSource).
 */
describe('build sources: sourceSpecs', () => {
  it('ddxplus:DIR and jsonl:FILE with one --mapping give two specs, the mapping on the jsonl one', () => {
    assert.deepEqual(sourceSpecs({ source: ['ddxplus:datasets/ddxplus', 'jsonl:notes.jsonl'], mapping: ['notes-mapping.json'] }), [
      { kind: 'ddxplus', dir: 'datasets/ddxplus' },
      { kind: 'jsonl', path: 'notes.jsonl', mappingPath: 'notes-mapping.json' },
    ]);
  });

  it('the order of the sources is kept, and mappings go to tabular sources in order', () => {
    const specs = sourceSpecs({ source: ['csv:a.csv', 'ddxplus:d', 'jsonl:b.jsonl'], mapping: ['ma.json', 'mb.json'] });
    assert.deepEqual(specs, [
      { kind: 'csv', path: 'a.csv', mappingPath: 'ma.json' },
      { kind: 'ddxplus', dir: 'd' },
      { kind: 'jsonl', path: 'b.jsonl', mappingPath: 'mb.json' },
    ]);
  });

  it('one source alone is one spec', () => {
    assert.deepEqual(sourceSpecs({ source: ['ddxplus:d'] }), [{ kind: 'ddxplus', dir: 'd' }]);
  });

  it('a second --mapping with only one tabular source is an error naming --mapping', () => {
    assert.throws(
      () => sourceSpecs({ source: ['ddxplus:datasets/ddxplus', 'jsonl:notes.jsonl'], mapping: ['one.json', 'two.json'] }),
      (e: unknown) => e instanceof InputError && e.field === 'mapping' && /--mapping/.test(e.message),
    );
  });

  it('a --mapping with no tabular source at all is an error naming --mapping', () => {
    assert.throws(() => sourceSpecs({ source: ['ddxplus:d'], mapping: ['m.json'] }), (e: unknown) => e instanceof InputError && /--mapping/.test(e.message));
  });

  it('a tabular source left without a mapping is an error naming --mapping', () => {
    assert.throws(() => sourceSpecs({ source: ['jsonl:a.jsonl', 'csv:b.csv'], mapping: ['m.json'] }), (e: unknown) => e instanceof InputError && e.field === 'mapping' && /--mapping/.test(e.message));
  });

  it('a --query-file goes to the postgres source; one too many is an error naming --query-file', () => {
    assert.deepEqual(sourceSpecs({ source: ['ddxplus:d', 'postgres:postgres://u@h/db'], queryFile: ['q.sql'] }), [
      { kind: 'ddxplus', dir: 'd' },
      { kind: 'postgres', url: 'postgres://u@h/db', queryFile: 'q.sql', mappingPath: null },
    ]);
    assert.throws(() => sourceSpecs({ source: ['ddxplus:d'], queryFile: ['q.sql'] }), (e: unknown) => e instanceof InputError && /--query-file/.test(e.message));
  });
});

function rec(id: string): NormalizedRecord {
  return { id, diagnosis: 'D', icd10: null, age: null, sex: null, findings: [], initialFindingCode: null, text: id, location: id };
}

/** A fake source: yields its records, reports the given summary, counts closes. */
class FakeSource implements RecordSource {
  closed = 0;
  constructor(readonly description: string, private readonly rows: NormalizedRecord[], private readonly sum: ImportSummary, private readonly declared?: Record<string, string[]>, private readonly failClose = false) {
    if (declared) this.declaredEvidence = async (): Promise<DeclaredEvidence> => (d) => declared[d] ?? null;
  }
  declaredEvidence?: () => Promise<DeclaredEvidence>;
  async *records(): AsyncIterable<NormalizedRecord> {
    for (const r of this.rows) yield r;
  }
  summary(): ImportSummary {
    return this.sum;
  }
  async close(): Promise<void> {
    this.closed++;
    if (this.failClose) throw new Error(`${this.description} failed to close`);
  }
}

const summaryA: ImportSummary = {
  rowsRead: 5, recordsEmitted: 3, skipped: 2, skippedByReason: { 'duplicate id': 1, 'no diagnosis': 1 }, examples: [{ location: 'a:1', reason: 'duplicate id' }, { location: 'a:4', reason: 'no diagnosis' }],
};
const summaryB: ImportSummary = {
  rowsRead: 7, recordsEmitted: 6, skipped: 1, skippedByReason: { 'duplicate id': 1 }, examples: [{ location: 'b:2', reason: 'duplicate id' }],
  factsSkipped: { count: 4, byReason: { 'unmapped concept': 4 }, examples: [{ location: 'measurement 9', reason: 'unmapped concept' }] },
};

describe('build sources: ConcatSource', () => {
  it('yields the records of both parts, in order, and describes itself by both', async () => {
    const a = new FakeSource('ddxplus:d', [rec('a1'), rec('a2'), rec('a3')], summaryA);
    const b = new FakeSource('jsonl:n', [rec('b1'), rec('b2')], summaryB);
    const c = new ConcatSource([a, b]);
    const ids: string[] = [];
    for await (const r of c.records()) ids.push(r.id);
    assert.deepEqual(ids, ['a1', 'a2', 'a3', 'b1', 'b2']);
    assert.equal(c.description, 'ddxplus:d + jsonl:n');
  });

  it('adds up the summaries of its parts', () => {
    const s = new ConcatSource([new FakeSource('a', [], summaryA), new FakeSource('b', [], summaryB)]).summary();
    assert.equal(s.rowsRead, 12);
    assert.equal(s.recordsEmitted, 9);
    assert.equal(s.skipped, 3);
    assert.deepEqual(s.skippedByReason, { 'duplicate id': 2, 'no diagnosis': 1 });
    assert.deepEqual(s.examples.map((e) => e.location), ['a:1', 'a:4', 'b:2']);
    assert.deepEqual(s.factsSkipped, { count: 4, byReason: { 'unmapped concept': 4 }, examples: [{ location: 'measurement 9', reason: 'unmapped concept' }] });
    // The parts' own summaries are not changed by adding them up.
    assert.deepEqual(summaryA.skippedByReason, { 'duplicate id': 1, 'no diagnosis': 1 });
    assert.equal(summaryA.examples.length, 2);
  });

  it('no facts skipped in any part: no factsSkipped in the sum', () => {
    const s = new ConcatSource([new FakeSource('a', [], summaryA), new FakeSource('a2', [], summaryA)]).summary();
    assert.equal(s.factsSkipped, undefined);
    assert.equal(s.skipped, 4);
  });

  it('keeps at most 10 examples in the sum', () => {
    const many: ImportSummary = { rowsRead: 8, recordsEmitted: 0, skipped: 8, skippedByReason: { bad: 8 }, examples: Array.from({ length: 8 }, (_, i) => ({ location: `x:${i}`, reason: 'bad' })) };
    const s = new ConcatSource([new FakeSource('a', [], many), new FakeSource('b', [], many)]).summary();
    assert.equal(s.examples.length, 10);
    assert.equal(s.skipped, 16);
  });

  it('declared evidence: the first part that knows a diagnosis answers', async () => {
    const c = new ConcatSource([new FakeSource('a', [], summaryA), new FakeSource('b', [], summaryA, { Flu: ['E_1'] }), new FakeSource('c', [], summaryA, { Flu: ['E_9'], Cold: ['E_2'] })]);
    const lookup = await c.declaredEvidence();
    assert.deepEqual(lookup('Flu'), ['E_1']);
    assert.deepEqual(lookup('Cold'), ['E_2']);
    assert.equal(lookup('Gout'), null);
  });

  it('close closes every part, and rethrows a part that failed after closing the others', async () => {
    const a = new FakeSource('a', [], summaryA, undefined, true);
    const b = new FakeSource('b', [], summaryB);
    await assert.rejects(new ConcatSource([a, b]).close(), /a failed to close/);
    assert.equal(a.closed, 1);
    assert.equal(b.closed, 1);
  });
});

describe('sourceSpecs: a postgres source with a query file needs no mapping', () => {
  it('the mapping goes to the csv source after it, not to the postgres one', () => {
    const specs = sourceSpecs({ source: ['postgres://u@h/db', 'csv:b.csv'], queryFile: ['q.sql'], mapping: ['m.json'] });
    assert.deepEqual(specs.map((s) => ('mappingPath' in s ? s.mappingPath : null)), [null, 'm.json']);
  });
  it('a spare mapping goes to the postgres source with a query file', () => {
    const specs = sourceSpecs({ source: ['postgres://u@h/db', 'csv:b.csv'], queryFile: ['q.sql'], mapping: ['p.json', 'm.json'] });
    assert.deepEqual(specs.map((s) => ('mappingPath' in s ? s.mappingPath : null)), ['p.json', 'm.json']);
  });
});
