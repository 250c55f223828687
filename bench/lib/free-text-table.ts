import { basename } from 'node:path';
import type { FreeTextCase } from './free-text-cases.js';
import type { FreeTextReport } from './free-text-run.js';
import type { TopK } from './free-text-score.js';
import { formatFreeTextCalibration, freeTextCalibrationTargets } from './free-text-calibration.js';

/** The free-text bench as text: the side-by-side table, issue 17's goals as targets, and the misses. */
export interface Target {
  name: string;
  target: string;
  measured: string;
  met: boolean | null;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}`;
const trio = (t: TopK) => `${pct(t.top1).padStart(5)} / ${pct(t.top3).padStart(5)} / ${pct(t.top5).padStart(5)}`;

export function formatFreeText(r: FreeTextReport): string {
  const d = r.dxgraph;
  const out = [
    `free-text vignettes: ${r.set.n} cases, ${r.set.conditions} conditions; KG ${r.build.buildId ?? '?'} from ${r.trainRecords} train records (${r.split ? `seed ${r.split.seed}, test fraction ${r.split.testFraction}` : 'every shipped record'}); embedder ${r.embedder}`,
    ...(r.unknownGold > 0 ? [`${r.unknownGold} vignettes are of conditions with no train record, so not in the KG (${r.unknownGoldConditions.join(', ')}): a miss for both systems`] : []),
    `${''.padEnd(18)}${'n'.padStart(5)}   ${'dxgraph top-1/3/5 %'.padEnd(23)}   TF-IDF kNN (k=${r.k}) top-1/3/5 %`,
  ];
  const row = (name: string, a: TopK, b: TopK | undefined) => out.push(`${name.padEnd(18)}${String(a.n).padStart(5)}   ${trio(a).padEnd(23)}   ${b ? trio(b) : ''}`);
  row('overall', d.scores.overall, r.baseline.scores.overall);
  for (const [k, v] of Object.entries(d.scores.byStyle)) row(`style ${k}`, v, r.baseline.scores.byStyle[k]);
  for (const [k, v] of Object.entries(d.scores.byTag)) row(`tag ${k}`, v, r.baseline.scores.byTag[k]);
  const na = d.negatedAsPresent;
  out.push(
    `negated findings matched as present: ${na.codes} of ${na.ofCodes} negated evidence codes, in ${na.cases} vignettes; caught as absent: ${d.negationsCaught.codes}`,
    `no feature matched: ${pct(d.noMatchShare)}% of vignettes; insufficient flag: ${d.insufficient ? `${d.insufficient.count} of ${d.insufficient.of}${reasons(d.insufficient.byReason)}` : 'not in results'}`,
    `latency p50: match ${fmtMs(d.latencyMs.matchP50)}, decompose + match ${fmtMs(d.latencyMs.textToFeaturesP50)}, whole diagnose ${fmtMs(d.latencyMs.totalP50)}`,
  );
  for (const h of r.heldOut) {
    out.push('', `held-out set ${h.set.path}: ${h.set.n} cases, ${h.set.conditions} conditions (written blind, never used for tuning)`);
    row('overall', h.dxgraph.scores.overall, h.baseline.scores.overall);
    for (const [k, v] of Object.entries(h.dxgraph.scores.byStyle)) row(`style ${k}`, v, h.baseline.scores.byStyle[k]);
    for (const [k, v] of Object.entries(h.dxgraph.scores.byTag)) row(`tag ${k}`, v, h.baseline.scores.byTag[k]);
    const hn = h.dxgraph.negatedAsPresent;
    out.push(`negated findings matched as present: ${hn.codes} of ${hn.ofCodes} negated evidence codes, in ${hn.cases} vignettes; caught as absent: ${h.dxgraph.negationsCaught.codes}`);
  }
  if (r.calibration) out.push('', formatFreeTextCalibration(r.calibration));
  return out.join('\n');
}

const reasons = (by: Record<string, number>) => (Object.keys(by).length === 0 ? '' : ` (${Object.entries(by).map(([k, v]) => `${k} ${v}`).join(', ')})`);
const fmtMs = (x: number | null) => (x === null ? 'n/a' : `${x.toFixed(1)} ms`);

/** Issue 17's free-text goals, checked on this run's figures (null report = not measured). */
export function freeTextTargets(r: FreeTextReport | null): Target[] {
  const dx = r?.dxgraph.scores.overall ?? null;
  const base = r?.baseline.scores.overall ?? null;
  const add = (name: string, target: string, v: number | null, ok: (v: number) => boolean, fmt: (v: number) => string): Target =>
    ({ name, target, measured: v === null ? 'not measured' : fmt(v), met: v === null ? null : ok(v) });
  return [
    add('free text top-3 (vignettes)', '>= 90%', dx?.top3 ?? null, (v) => v >= 0.9, (v) => `${pct(v)}%`),
    add('free text top-1 (vignettes)', '>= 80%', dx?.top1 ?? null, (v) => v >= 0.8, (v) => `${pct(v)}%`),
    add('free text top-3 minus TF-IDF kNN', '>= +15 points', dx && base ? 100 * (dx.top3 - base.top3) : null, (v) => v >= 15, (v) => `${v >= 0 ? '+' : ''}${v.toFixed(1)} points`),
    add('negated findings matched present', '= 0', r?.dxgraph.negatedAsPresent.codes ?? null, (v) => v === 0, (v) => String(v)),
    // The goals are the dev set's (issue 17); the held-out figures say how far they carry over.
    ...(r?.heldOut ?? []).flatMap((h) => {
      const name = basename(h.set.path, '.jsonl');
      return [
        { name: `held-out ${name} top-3 (blind)`, target: 'reported', measured: `${pct(h.dxgraph.scores.overall.top3)}%`, met: null },
        { name: `held-out ${name} top-1 (blind)`, target: 'reported', measured: `${pct(h.dxgraph.scores.overall.top1)}%`, met: null },
        add(`held-out ${name} negated present`, '= 0', h.dxgraph.negatedAsPresent.codes, (v) => v === 0, (v) => String(v)),
      ];
    }),
    ...freeTextCalibrationTargets(r?.calibration),
  ];
}

/** Every case whose gold is not dxgraph's first answer: the text, gold, both top-3s and what matched. */
export function formatMisses(cases: readonly FreeTextCase[]): string {
  const out: string[] = [];
  for (const c of cases) {
    if (c.dxgraph.rank === 1) continue;
    const d = c.dxgraph;
    out.push(
      `${c.id} [${c.style}; ${c.tags.join(', ') || 'no tags'}] gold ${c.condition}: dxgraph rank ${d.rank ?? '-'}, TF-IDF rank ${c.baseline.rank ?? '-'}${d.insufficient ? ` (insufficient${d.insufficientReason ? `: ${d.insufficientReason}` : ''})` : ''}`,
      `  text: ${c.text}`,
      `  dxgraph: ${d.top.slice(0, 3).map((x) => `${x.disease} ${x.score.toFixed(2)}`).join(' | ') || '(empty)'}`,
      `  TF-IDF:  ${c.baseline.top.slice(0, 3).map((x) => `${x.disease} ${x.score.toFixed(2)}`).join(' | ') || '(no known term)'}`,
      `  ${d.findings} findings, ${d.matches.length} matches${d.negatedAsPresent.length ? `; NEGATED AS PRESENT: ${d.negatedAsPresent.join(', ')}` : ''}`,
      ...d.matches.map((m) => `    ${m.polarity === 'absent' ? '-' : '+'} ${m.featureText} [${m.code ?? 'no code'}] ${m.similarity.toFixed(2)}${m.via ? ` via ${m.via}` : ''}`),
    );
  }
  return out.length === 0 ? '(no misses)' : out.join('\n');
}
