/**
 * CPU of the clinical-text pipeline on one short paragraph (moved out of the unit suite: a speed
 * target is a benchmark's figure, not a timed unit test). Prints the median and p90 CPU of
 * `analyzeClinicalText` over --runs runs after a warm-up, and the ratio to the 1 ms target.
 *
 *   node --import tsx bench/text-cpu.ts [--runs 200]
 */
import { parseArgs } from 'node:util';
import { analyzeClinicalText } from '../src/clinical-text/analysis/index.js';

const { values: a } = parseArgs({ options: { runs: { type: 'string', default: '200' } } });
const runs = Math.max(10, Number(a.runs));
// Written for dxgraph: a triage line in the style of an ED note (no patient's text).
const p = "61M smoker, crushing CP radiating to L arm x2h, diaphoretic, SOB. Denies fever, chills, N/V. h/o HTN, DM. Mother had an MI at 50. I can't catch my breath and I don't have a cough. Temp 38.9, pain 8/10.";
for (let i = 0; i < 300; i++) analyzeClinicalText(p);
const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const t0 = process.cpuUsage();
  analyzeClinicalText(p);
  const d = process.cpuUsage(t0);
  times.push((d.user + d.system) / 1000);
}
times.sort((x, y) => x - y);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
console.log(`text pipeline, one ${p.length}-character paragraph, ${runs} runs: CPU median ${at(0.5).toFixed(3)} ms, p90 ${at(0.9).toFixed(3)} ms (target < 1 ms: ratio ${(at(0.5) / 1).toFixed(2)})`);
