/**
 * The tree `npm test` runs in (issue 49): the project's TypeScript transpiled once per run with
 * esbuild (the transform tsx applies to each file as it loads it) into a throwaway mirror of the
 * project, so no test process pays for a module loader hook. Measured on this 2-core box: through
 * tsx's hooks every module, node_modules included, crosses to the loader thread; `dxgraph --help`
 * cost 5.2 s of CPU that way and 2.5 s transpiled, and the unit suite 127 s against 80 s.
 *
 * The mirror: every top-level entry is a symlink to the real one, except the code folders, which
 * are rebuilt file by file: each `.ts` beside its `.js` (the `.ts` kept as a symlink for the
 * checks that read sources and the children started with tsx), `.cts` to `.cjs`, every other
 * file a symlink (data files found through `import.meta.dirname` resolve to the real ones). The
 * CLI entry and the mocha configurations are rewritten to run without tsx. Nothing is kept
 * between runs: the mirror is made at the start and removed at the end.
 */
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pidAlive } from '../../src/util/pid-alive.js';

/** Folders whose TypeScript is transpiled; everything else at the top level is linked. */
const CODE_DIRS = ['bench', 'bin', 'kg-build', 'scripts', 'src', 'test'];
/** Never mirrored: the repository itself and the mirrors' own parent. */
const SKIP = new Set(['.git', '.test-build']);
export const MIRRORS_DIR = '.test-build';

interface Sources {
  esm: string[];
  cjs: string[];
}

function mirrorDir(root: string, out: string, rel: string, sources: Sources): void {
  mkdirSync(join(out, rel), { recursive: true });
  for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
    const path = join(rel, entry.name);
    if (entry.isDirectory()) {
      mirrorDir(root, out, path, sources);
      continue;
    }
    symlinkSync(join(root, path), join(out, path));
    if (entry.name.endsWith('.d.ts')) continue;
    if (entry.name.endsWith('.ts')) sources.esm.push(join(root, path));
    else if (entry.name.endsWith('.cts')) sources.cjs.push(join(root, path));
  }
}

/** `.mocharc.<suite>.json` for the mirror: no tsx import, transpiled hook and reporter paths. */
function mochaConfig(text: string): string {
  const cfg = JSON.parse(text) as Record<string, unknown>;
  const js = (p: string) => p.replace(/\.cts$/, '.cjs').replace(/\.ts$/, '.js');
  const nodeOptions = ((cfg['node-option'] as string[] | undefined) ?? []).filter((o) => o !== 'import=tsx');
  cfg['node-option'] = [...nodeOptions, 'enable-source-maps'];
  if (typeof cfg.reporter === 'string') cfg.reporter = js(cfg.reporter);
  if (Array.isArray(cfg.require)) cfg.require = (cfg.require as string[]).map(js);
  return `${JSON.stringify(cfg)}\n`;
}

/** Builds the mirror of `root` at `out` (which must not exist); returns the number of files transpiled. */
export async function transpileTree(root: string, out: string): Promise<number> {
  if (existsSync(out)) throw new Error(`${out} exists: refusing to overwrite it`);
  mkdirSync(out, { recursive: true });
  const sources: Sources = { esm: [], cjs: [] };
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    if (entry.isDirectory() && CODE_DIRS.includes(entry.name)) mirrorDir(root, out, entry.name, sources);
    else if (!entry.name.startsWith('.mocharc.')) symlinkSync(join(root, entry.name), join(out, entry.name));
    else writeFileSync(join(out, entry.name), mochaConfig(readFileSync(join(root, entry.name), 'utf8')));
  }
  // Import attributes (`with { type: 'json' }`) are kept: Node 20 needs them and esbuild's
  // node20 target would otherwise drop them.
  const common = { outdir: out, outbase: root, platform: 'node', target: 'node20', sourcemap: 'inline', logLevel: 'error', supported: { 'import-attributes': true } } as const;
  await build({ ...common, entryPoints: sources.esm, format: 'esm' });
  await build({ ...common, entryPoints: sources.cjs, format: 'cjs', outExtension: { '.js': '.cjs' } });
  // The CLI entry registers tsx and imports main.ts; here it imports the transpiled main.
  rmSync(join(out, 'bin', 'dxgraph.js'));
  writeFileSync(join(out, 'bin', 'dxgraph.js'), `#!/usr/bin/env node\n// Transpiled test tree (scripts/lib/transpiled-tree.ts).\nawait import('../src/cli/main.js');\n`);
  return sources.esm.length + sources.cjs.length;
}

/** Mirrors left by runs whose process is gone (a killed `npm test`): removed. */
export function removeStaleMirrors(root: string): void {
  const dir = join(root, MIRRORS_DIR);
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const pid = Number(name.replace(/^run-/, ''));
    if (Number.isInteger(pid) && pid > 0 && pidAlive(pid)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
  }
}

export const mirrorPath = (root: string, pid: number) => join(root, MIRRORS_DIR, `run-${pid}`);
