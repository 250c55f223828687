import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractJson } from '../../src/adapters/llm/json-extract.js';
import { loadPrompt, parsePrompt, PromptError } from '../../src/adapters/llm/prompts.js';

describe('prompt files (declared placeholders)', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dxgraph-prompts-'));
    await writeFile(
      join(dir, 'reason.md'),
      '---\nplaceholders: patient, records\ndescription: test prompt\n---\nPatient: {{patient}}\nRecords: {{records}}\nAnswer as {"status": true}.\n',
    );
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('loads, declares and fills; objects become JSON, literal braces stay', async () => {
    const p = await loadPrompt('reason', { dir });
    assert.deepEqual(p.placeholders, ['patient', 'records']);
    assert.equal(p.description, 'test prompt');
    const text = p.fill({ patient: 'cough & <fever>', records: [{ id: 'r1' }] });
    assert.equal(text, 'Patient: cough & <fever>\nRecords: [{"id":"r1"}]\nAnswer as {"status": true}.\n');
  });

  it('throws PromptError on a missing or an extra value', async () => {
    const p = await loadPrompt('reason', { dir });
    assert.throws(() => p.fill({ patient: 'x' }), (e: unknown) => e instanceof PromptError && /records/.test(e.message));
    assert.throws(() => p.fill({ patient: 'x', records: 'y', kg: 'z' }), (e: unknown) => e instanceof PromptError && /kg/.test(e.message));
    assert.throws(() => p.fill({ patient: 'x', records: undefined }), PromptError);
  });

  it('rejects templates whose placeholders do not match the declaration, and missing files', async () => {
    await assert.rejects(parsePrompt('t', 't.md', '---\nplaceholders: a\n---\n{{a}} {{b}}'), /undeclared placeholder\(s\) b/);
    await assert.rejects(parsePrompt('t', 't.md', '---\nplaceholders: a, b\n---\n{{a}}'), /b not used/);
    await assert.rejects(parsePrompt('t', 't.md', 'no front matter {{a}}'), /front matter/);
    await assert.rejects(parsePrompt('t', 't.md', '---\ndescription: x\n---\n{{a}}'), /placeholders:/);
    await assert.rejects(loadPrompt('nope', { dir }), (e: unknown) => e instanceof PromptError && e.message.includes(join(dir, 'nope.md')));
    await assert.rejects(loadPrompt('../etc/passwd', { dir }), PromptError);
  });

  it('as a LangChain PromptTemplate renders the same text', async () => {
    const p = await loadPrompt('reason', { dir });
    const values = { patient: 'a', records: 'b' };
    assert.equal(await p.asPromptTemplate().format(values), p.fill(values));
  });
});

describe('extractJson', () => {
  it('accepts bare JSON, ```json fences and prose around one object', () => {
    assert.deepEqual(extractJson('{"a":1}'), { ok: true, value: { a: 1 } });
    assert.deepEqual(extractJson('Sure:\n```json\n[1, 2]\n```\nDone.'), { ok: true, value: [1, 2] });
    assert.deepEqual(extractJson('The answer is {"status": false} as requested.'), { ok: true, value: { status: false } });
  });

  it('rejects broken JSON without quoting the reply', () => {
    const r = extractJson('secret patient text {"a": ');
    assert.ok(!r.ok);
    assert.doesNotMatch(r.error, /secret/);
    assert.equal(extractJson('   ').ok, false);
  });
});
