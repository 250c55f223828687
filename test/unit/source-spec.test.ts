import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { registerSourceCommands } from '../../src/cli/source-commands.js';
import { InputError } from '../../src/errors.js';
import { describeSourceSpec, openSource, parseSourceSpec } from '../../src/sources/source-spec.js';

describe('source spec', () => {
  it('parses the four source kinds', () => {
    assert.deepEqual(parseSourceSpec('ddxplus:datasets/ddxplus'), { kind: 'ddxplus', dir: 'datasets/ddxplus' });
    assert.deepEqual(parseSourceSpec('csv:/data/a:b.csv', { mapping: 'm.json' }), { kind: 'csv', path: '/data/a:b.csv', mappingPath: 'm.json' });
    assert.deepEqual(parseSourceSpec('jsonl:r.jsonl', { mapping: 'm.json' }), { kind: 'jsonl', path: 'r.jsonl', mappingPath: 'm.json' });
    assert.deepEqual(parseSourceSpec('postgres:postgres://u:pw@127.0.0.1:5432/ehr', { queryFile: 'q.sql' }), {
      kind: 'postgres', url: 'postgres://u:pw@127.0.0.1:5432/ehr', queryFile: 'q.sql', mappingPath: null,
    });
    assert.deepEqual(parseSourceSpec('postgresql://h/db', { queryFile: 'q.sql', mapping: 'm.json' }), {
      kind: 'postgres', url: 'postgresql://h/db', queryFile: 'q.sql', mappingPath: 'm.json',
    });
  });

  const bad: Array<[string, { mapping?: string; queryFile?: string }, RegExp]> = [
    ['datasets/ddxplus', {}, /bad --source/],
    ['ddxplus:', {}, /nothing after/],
    ['excel:a.xlsx', {}, /unknown source kind 'excel'/],
    ['csv:a.csv', {}, /needs --mapping/],
    ['ddxplus:d', { mapping: 'm.json' }, /--mapping does not apply/],
    ['csv:a.csv', { mapping: 'm.json', queryFile: 'q.sql' }, /--query-file does not apply/],
    ['postgres:localhost/db', { queryFile: 'q.sql' }, /postgres:\/\/ or postgresql:\/\/ URL/],
    ['postgres:postgres://h/db', {}, /needs --query-file/],
  ];
  for (const [source, flags, message] of bad) {
    it(`rejects ${source} ${JSON.stringify(flags)} with an InputError`, () => {
      assert.throws(() => parseSourceSpec(source, flags), (e: unknown) => e instanceof InputError && message.test(e.message));
    });
  }

  it('never shows a password in a description', () => {
    const d = describeSourceSpec(parseSourceSpec('postgres:postgres://u:secret@h:5432/db', { queryFile: 'q.sql' }));
    assert.ok(!d.includes('secret'));
    assert.match(d, /u:\*\*\*@h:5432/);
  });

  it('opens a ddxplus source lazily and reads records', async () => {
    const src = await openSource(parseSourceSpec('ddxplus:datasets/ddxplus'), { strict: false });
    assert.equal(src.description, 'ddxplus:datasets/ddxplus');
    let n = 0;
    for await (const r of src.records()) {
      assert.match(r.id, /^ddxplus:patients-dev\.csv:\d+$/);
      if (++n === 3) break;
    }
    assert.equal(n, 3);
    await src.close();
  });

  it('dxgraph import prints the summary and writes normalized JSON Lines', async function () {
    this.timeout(60_000);
    const dir = await mkdtemp(join(tmpdir(), 'dxgraph-cli-'));
    const printed: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => (printed.push(String(chunk)), true)) as typeof process.stdout.write;
    try {
      const program = new Command('dxgraph').exitOverride();
      registerSourceCommands(program);
      await program.parseAsync(['import', '--source', 'ddxplus:datasets/ddxplus', '--out', join(dir, 'r.jsonl')], { from: 'user' });
    } finally {
      process.stdout.write = write;
    }
    const out = printed.join('');
    assert.match(out, /rows read: 1567\nrecords emitted: 1567\nskipped: 0/);
    const lines = (await readFile(join(dir, 'r.jsonl'), 'utf8')).trim().split('\n');
    assert.equal(lines.length, 1567);
    assert.equal(JSON.parse(lines[2] as string).id, 'ddxplus:patients-dev.csv:3');
    await rm(dir, { recursive: true });
  });
});
