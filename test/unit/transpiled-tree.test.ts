import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIRRORS_DIR, mirrorPath, removeStaleMirrors, transpileTree } from '../../scripts/lib/transpiled-tree.js';

/** A small project: TypeScript importing by `.js` and JSON with an attribute, a data file, a CommonJS reporter, mocha config. */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'dx-tree-'));
  const put = (rel: string, text: string) => {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  put('src/words.json', '{"fever": "HP:0001945"}\n');
  put('src/data/ranges.txt', 'hgb 12-16\n');
  put('src/lookup.ts', "import words from './words.json' with { type: 'json' };\nexport const code = (w: string): string => (words as Record<string, string>)[w] ?? 'none';\n");
  put(
    'src/cli/main.ts',
    "import { readFileSync } from 'node:fs';\nimport { join } from 'node:path';\nimport { code } from '../lookup.js';\n" +
      "const range: string = readFileSync(join(import.meta.dirname, '../data/ranges.txt'), 'utf8').trim();\nconsole.log(code('fever'), range);\n",
  );
  put('bin/dxgraph.js', "import { register } from 'tsx/esm/api';\nregister();\nawait import('../src/cli/main.ts');\n");
  put('test/support/reporter.cts', "import path = require('node:path');\nexport = { sep: path.sep };\n");
  put('test/unit/a.test.ts', 'export const x: number = 1;\n');
  put('.mocharc.unit.json', JSON.stringify({ 'node-option': ['import=tsx'], reporter: './test/support/reporter.cts', require: ['test/support/hooks.ts'], jobs: 2 }));
  put('README.md', '# fixture\n');
  mkdirSync(join(root, '.git'));
  return root;
}

describe('the transpiled tree npm test runs in (scripts/lib/transpiled-tree.ts)', () => {
  let root: string;
  before(() => (root = project()));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('runs the CLI entry with plain node: TypeScript transpiled, JSON attributes kept, data files reached', async () => {
    const out = mirrorPath(root, 1234);
    assert.equal(await transpileTree(root, out), 4, "three .ts files and one .cts");
    const stdout = execFileSync(process.execPath, [join(out, 'bin/dxgraph.js')], { encoding: 'utf8' });
    assert.equal(stdout.trim(), 'HP:0001945 hgb 12-16');
    assert.ok(!readFileSync(join(out, 'bin/dxgraph.js'), 'utf8').includes('tsx'), 'the entry needs no loader');
  });

  it('keeps each source beside its JavaScript, links everything else, and skips .git', () => {
    const out = mirrorPath(root, 1234);
    assert.ok(lstatSync(join(out, 'src/lookup.ts')).isSymbolicLink());
    assert.ok(lstatSync(join(out, 'src/lookup.js')).isFile());
    assert.ok(lstatSync(join(out, 'src/data/ranges.txt')).isSymbolicLink());
    assert.ok(lstatSync(join(out, 'README.md')).isSymbolicLink());
    assert.equal(existsSync(join(out, '.git')), false);
    const reporter = execFileSync(process.execPath, ['-p', `require(${JSON.stringify(join(out, 'test/support/reporter.cjs'))}).sep`], { encoding: 'utf8' });
    assert.equal(reporter.trim(), '/');
  });

  it('rewrites the mocha configuration to run without tsx, on the transpiled hooks and reporter', () => {
    const cfg = JSON.parse(readFileSync(join(mirrorPath(root, 1234), '.mocharc.unit.json'), 'utf8'));
    assert.deepEqual(cfg['node-option'], ['enable-source-maps']);
    assert.equal(cfg.reporter, './test/support/reporter.cjs');
    assert.deepEqual(cfg.require, ['test/support/hooks.js']);
    assert.equal(cfg.jobs, 2);
  });

  it('refuses to write over an existing tree', async () => {
    await assert.rejects(transpileTree(root, mirrorPath(root, 1234)), /exists/);
  });

  it('removes the trees of runs whose process is gone, and keeps a live run', () => {
    const dead = mirrorPath(root, 2 ** 22 + 12345);
    mkdirSync(dead, { recursive: true });
    const live = mirrorPath(root, process.pid);
    mkdirSync(live, { recursive: true });
    removeStaleMirrors(root);
    assert.equal(existsSync(dead), false);
    assert.equal(existsSync(live), true);
    assert.ok(existsSync(join(root, MIRRORS_DIR)));
  });
});
