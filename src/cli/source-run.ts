import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { describeSourceSpec, openSource, parseSourceSpec } from '../sources/source-spec.js';
import { writeSplit } from '../sources/split-files.js';
import { formatSummary, type SourceFlags } from './source-commands.js';

/** What `dxgraph import` and `dxgraph split` run (flags and help: source-commands.ts), loaded only when they run (issue 49). */
function specOf(o: SourceFlags) {
  return parseSourceSpec(o.source, { mapping: o.mapping ?? null, queryFile: o.queryFile ?? null });
}

export async function runImport(o: SourceFlags & { strict?: boolean; out?: string }): Promise<void> {
  const spec = specOf(o);
  const src = await openSource(spec, { strict: o.strict === true });
  const out = o.out ? createWriteStream(o.out) : null;
  try {
    for await (const rec of src.records()) {
      if (out && !out.write(`${JSON.stringify(rec)}\n`)) await once(out, 'drain');
    }
  } finally {
    await src.close();
    if (out) {
      out.end();
      await once(out, 'close');
    }
  }
  process.stdout.write(formatSummary(describeSourceSpec(spec), src.summary()));
  if (o.out) process.stdout.write(`written: ${o.out}\n`);
}

export async function runSplit(o: SourceFlags & { testFraction: number; seed: number; outDir: string; stratify?: boolean }): Promise<void> {
  const spec = specOf(o);
  const r = await writeSplit(spec, o.outDir, { seed: o.seed, testFraction: o.testFraction, stratify: o.stratify === true });
  const lines = [`source: ${describeSourceSpec(spec)}`, `train: ${r.train} -> ${r.dirs.train}`, `test: ${r.test} -> ${r.dirs.test}`, `not copied (unreadable rows): ${r.notCopied}`];
  lines.push(...r.examples.map((e) => `  ${e.location}: ${e.reason}`));
  process.stdout.write(`${lines.join('\n')}\n`);
}
