/**
 * Streaming import benchmark: a DDXPlus patients file 100x the shipped sample (by repetition)
 * is imported end to end; prints rows/s and RSS at 10% / 50% / 100% plus the peak, to show
 * memory stays flat. Run: npx tsx bench/import-bench.ts [times=100]
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DdxplusSource } from '../src/sources/ddxplus/ddxplus-source.js';

const SAMPLE = 'datasets/ddxplus';
const times = Number(process.argv[2] ?? 100);
const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;

async function makeBigDir(): Promise<{ dir: string; rows: number; bytes: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'dxgraph-bench-'));
  for (const f of ['release_evidences.json', 'release_conditions.json']) await copyFile(join(SAMPLE, f), join(dir, f));
  const text = await readFile(join(SAMPLE, 'patients-dev.csv'), 'utf8');
  const newline = text.indexOf('\n');
  const header = text.slice(0, newline + 1);
  const body = text.slice(newline + 1).replace(/\n?$/, '\n');
  const out = createWriteStream(join(dir, 'release_train_patients'));
  out.write(header);
  for (let i = 0; i < times; i++) if (!out.write(body)) await once(out, 'drain');
  out.end();
  await once(out, 'close');
  const rows = times * (body.match(/\n/g)?.length ?? 0);
  return { dir, rows, bytes: header.length + times * Buffer.byteLength(body) };
}

const { dir, rows, bytes } = await makeBigDir();
console.log(`file: ${rows} rows, ${mb(bytes)} (${times}x the sample)`);
global.gc?.();
const baseline = process.memoryUsage().rss;
let peak = baseline;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
const marks = new Map([[Math.floor(rows * 0.1), '10%'], [Math.floor(rows * 0.5), '50%'], [rows, '100%']]);
const src = new DdxplusSource(dir, { strict: false });
const t0 = performance.now();
let n = 0;
let findings = 0;
try {
  for await (const rec of src.records()) {
    n++;
    findings += rec.findings.length;
    const mark = marks.get(n);
    if (mark) {
      const rss = process.memoryUsage().rss;
      peak = Math.max(peak, rss);
      console.log(`  at ${mark.padStart(4)}: ${String(n).padStart(8)} rows, RSS ${mb(rss)}, ${Math.round(n / ((performance.now() - t0) / 1000))} rows/s`);
    }
  }
} finally {
  clearInterval(sampler);
  await rm(dir, { recursive: true, force: true });
}
const secs = (performance.now() - t0) / 1000;
const s = src.summary();
console.log(`imported ${s.recordsEmitted}/${s.rowsRead} rows (${s.skipped} skipped), ${findings} findings in ${secs.toFixed(1)} s`);
console.log(`throughput: ${Math.round(n / secs)} rows/s`);
console.log(`RSS: before ${mb(baseline)}, peak ${mb(peak)} (process maxRSS ${mb(process.resourceUsage().maxRSS * 1024)})`);
