import type { Command } from 'commander';
import { InputError } from '../errors.js';
import { DEFAULT_OPTIONS, type DiagnoseOptions, type DiagnoseResult } from '../query/contracts.js';

/**
 * `dxgraph ask "<text>"`: one diagnosis from the shell through the same `diagnose()`
 * the HTTP server uses, printed readably (or as the full JSON result with --json). Flags, help
 * and the output format here; what it runs (ask-run.ts) is imported when it runs (issue 49).
 */
export interface AskFlags {
  json?: boolean;
  k?: number;
  m?: number;
  threshold?: number;
  followUps?: number;
  reasoner?: DiagnoseOptions['reasoner'];
  file?: string;
}

const int = (name: string) => (v: string) => {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim())) throw new InputError(`--${name} must be a non-negative integer, got '${v}'`, { field: name });
  return n;
};
const unit = (v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n < -1 || n > 1) throw new InputError(`--threshold must be a number in [-1, 1], got '${v}'`, { field: 'threshold' });
  return n;
};
const reasonerFlag = (v: string) => {
  if (v !== 'auto' && v !== 'evidence' && v !== 'llm') throw new InputError(`--reasoner must be auto|evidence|llm, got '${v}'`, { field: 'reasoner' });
  return v;
};

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function formatResult(r: DiagnoseResult): string {
  const out: string[] = [];
  if (r.insufficient) out.push(`Too little to rank: ${r.insufficient.message}`, '');
  out.push(`Differential (reasoner: ${r.reasoner}${r.model ? `, model ${r.model}` : ''}${r.degraded ? ', degraded' : ''}${r.insufficient ? ', mostly prior' : ''})`);
  r.differential.forEach((d, i) => out.push(`  ${String(i + 1).padStart(2)}. ${d.disease.padEnd(40)} ${pct(d.score).padStart(6)}   ${d.subcategory} / ${d.category}`));
  const top = r.differential[0];
  if (top) for (const e of top.evidence.slice(0, 6)) out.push(`        ${e}`);
  const chosen = r.trace.chosenSubcategory;
  out.push('', `Subcategory: ${chosen ? `${chosen.name} (${chosen.votes} votes)` : '(none: no feature matched)'}`);
  for (const v of r.trace.votes.slice(0, 5)) out.push(`  ${v.name.padEnd(40)} ${v.votes}`);
  out.push('', `Findings: ${r.trace.findings.length}, matched feature nodes: ${new Set(r.trace.matches.map((m) => m.featureId)).size}`);
  out.push(...findingLines(r));
  out.push('', 'Similar records:');
  for (const x of r.trace.retrieved.slice(0, 5)) out.push(`  ${x.diagnosis.padEnd(40)} ${x.similarity.toFixed(3)}`);
  out.push('', 'Follow-up questions:');
  for (const q of r.followUps) out.push(`  - ${q.text} [${q.ranker} ${q.score.toFixed(1)}]`);
  if (r.report) out.push('', 'Report:', r.report.narrative);
  const t = r.trace.timingsMs;
  out.push('', `Timings (ms): ${Object.entries(t).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
  return out.join('\n');
}

/** Each finding as read (assertion, experiencer, values), then the KG features it became and why. */
function findingLines(r: DiagnoseResult): string[] {
  const out: string[] = [];
  r.trace.findings.slice(0, 20).forEach((f, i) => {
    const attrs = [f.assertion ?? f.polarity, f.experiencer && f.experiencer !== 'patient' ? f.experiencer : null, f.temporality === 'historical' ? 'history' : null, f.cue ? `cue "${f.cue}"` : null]
      .filter(Boolean)
      .join(', ');
    const vals = f.values ? Object.entries(f.values).map(([k, v]) => `${k}=${typeof v === 'object' ? `${v.value} ${v.unit}` : v}`).join(' ') : '';
    out.push(`  "${f.text}" [${attrs}]${vals ? ` ${vals}` : ''}`);
    const ms = r.trace.matches.filter((m) => m.findingIndex === i);
    if (ms.length === 0) out.push('      (no KG feature)');
    for (const m of ms.slice(0, 6)) out.push(`      ${m.polarity === 'absent' ? '-' : '+'} ${m.featureLabel ?? m.featureText} (${m.similarity.toFixed(2)}${m.via ? `, ${m.via}` : ''})`);
    if (ms.length > 6) out.push(`      ... ${ms.length - 6} more alternatives`);
  });
  if (r.trace.findings.length > 20) out.push(`  ... ${r.trace.findings.length - 20} more findings`);
  return out;
}

export function registerQueryCommands(program: Command): void {
  program
    .command('ask')
    .description('diagnose one patient description from the shell (same pipeline as POST /v1/diagnose)')
    .argument('[text]', 'free-text description, findings or DDXPlus evidence codes')
    .option('--file <path>', "read the description from a file ('-' for stdin)")
    .option('--json', 'print the full DiagnoseResult (with the trace) as JSON')
    .option('--k <n>', `similar records retrieved (default ${DEFAULT_OPTIONS.topK})`, int('k'))
    .option('--m <n>', `feature matches per finding (default ${DEFAULT_OPTIONS.topM})`, int('m'))
    .option('--threshold <x>', `feature match threshold t_matching (default ${DEFAULT_OPTIONS.matchThreshold})`, unit)
    .option('--follow-ups <n>', `follow-up questions (default ${DEFAULT_OPTIONS.followUps})`, int('follow-ups'))
    .option('--reasoner <name>', 'auto | evidence | llm', reasonerFlag)
    .action(async (text: string | undefined, o: AskFlags) => (await import('./ask-run.js')).runAsk(text, o));

  // `serve` lives in src/cli/serve-command.ts (HTTP engineer), registered in main.ts.
}
