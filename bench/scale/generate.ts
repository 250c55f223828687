/**
 * Scale-up generator (benchmarks only): writes a DDXPlus-like directory of any size from
 * the shipped sample, in the official release column format, so `ddxplus:DIR` reads it
 * unchanged. Each synthetic patient takes a disease by its sample frequency, a donor row of
 * that disease (AGE, SEX, DIFFERENTIAL_DIAGNOSIS), and resamples the findings: every
 * evidence question is present with probability (1-ε)·P(q|disease) + ε·P(q), and its answer
 * is an answer observed for it in that disease (or, with probability ε, anywhere in the
 * sample). Seeded; rows are streamed to disk, so memory stays flat at any size.
 *
 *   npx tsx bench/scale/generate.ts --size 100000 --out /tmp/ddx-100k [--seed 1] [--noise 0.05]
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { cumulativeOf, drawCumulative, mulberry32, pick, type Rng } from '../lib/rng.js';
import { readProfile, type DiseaseProfile, type QuestionStats, type SampleProfile } from './profile.js';

export interface GenerateOptions {
  size: number;
  outDir: string;
  seed?: number;
  /** ε: share of the global distribution mixed into each disease's (0 = pure resampling). */
  noise?: number;
  sampleDir?: string;
}

export interface GenerateResult {
  dir: string;
  rows: number;
  file: string;
  reused: boolean;
}

const DICTIONARIES = ['release_evidences.json', 'release_conditions.json'];
export const PATIENTS_FILE = 'release_train_patients.csv';
const MARKER = 'scale.json';

interface QuestionDraw {
  question: string;
  p: number;
  own: string[][];
  global: string[][];
}

/** Per disease, every question of the sample with its mixed presence probability. */
function drawPlan(profile: SampleProfile, d: DiseaseProfile, noise: number): QuestionDraw[] {
  const plan: QuestionDraw[] = [];
  for (const [question, g] of profile.global) {
    const own: QuestionStats | undefined = d.questions.get(question);
    const p = (1 - noise) * ((own?.present ?? 0) / d.rows) + noise * (g.present / profile.rows);
    if (p > 0) plan.push({ question, p, own: own?.answers ?? [], global: g.answers });
  }
  return plan.sort((a, b) => qNum(a.question) - qNum(b.question));
}

const qNum = (q: string) => Number(q.slice(2));

function csvCell(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function patientRow(rng: Rng, d: DiseaseProfile, plan: QuestionDraw[], noise: number): string {
  const donor = pick(rng, d.donors);
  const initial = d.initial.length > 0 ? pick(rng, d.initial) : null;
  const tokens: string[] = [];
  for (const q of plan) {
    const forced = q.question === initial;
    if (!forced && rng() >= q.p) continue;
    const answers = q.own.length > 0 && rng() >= noise ? q.own : q.global;
    tokens.push(...pick(rng, answers));
  }
  const evidences = `[${tokens.map((t) => `'${t}'`).join(', ')}]`;
  return [donor.age, csvCell(donor.differential), donor.sex, csvCell(d.name), csvCell(evidences), initial ?? ''].join(',') + '\n';
}

/**
 * The sample's profile, read once per process while the file is unchanged (same size and
 * mtime): several sizes or seeds generated in one process draw from the same sample, and the
 * generator only reads the profile.
 */
const profiles = new Map<string, Promise<SampleProfile>>();
async function sampleProfile(csvPath: string): Promise<SampleProfile> {
  const st = await stat(csvPath);
  const key = `${resolve(csvPath)}\0${st.size}\0${st.mtimeMs}`;
  let got = profiles.get(key);
  if (!got) {
    got = readProfile(csvPath);
    profiles.set(key, got);
    got.catch(() => profiles.delete(key));
  }
  return got;
}

export async function generate(opts: GenerateOptions): Promise<GenerateResult> {
  const seed = opts.seed ?? 1;
  const noise = opts.noise ?? 0.05;
  const sampleDir = opts.sampleDir ?? 'datasets/ddxplus';
  const dir = resolve(opts.outDir);
  const file = join(dir, PATIENTS_FILE);
  const wanted = { size: opts.size, seed, noise, sample: resolve(sampleDir) };
  try {
    if (JSON.stringify(JSON.parse(await readFile(join(dir, MARKER), 'utf8'))) === JSON.stringify(wanted)) return { dir, rows: opts.size, file, reused: true };
  } catch {
    // no marker (or another size): generate afresh
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const f of DICTIONARIES) await copyFile(join(sampleDir, f), join(dir, f));
  const profile = await sampleProfile(join(sampleDir, 'patients-dev.csv'));
  const plans = profile.diseases.map((d) => drawPlan(profile, d, noise));
  const cumulative = cumulativeOf(profile.diseases.map((d) => d.rows));
  const rng = mulberry32(seed);
  const out = createWriteStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  out.write('AGE,DIFFERENTIAL_DIAGNOSIS,SEX,PATHOLOGY,EVIDENCES,INITIAL_EVIDENCE\n');
  for (let i = 0; i < opts.size; i++) {
    const di = drawCumulative(rng, cumulative);
    if (!out.write(patientRow(rng, profile.diseases[di]!, plans[di]!, noise))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
  await writeFile(join(dir, MARKER), JSON.stringify(wanted));
  return { dir, rows: opts.size, file, reused: false };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { size: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string', default: '1' }, noise: { type: 'string', default: '0.05' }, sample: { type: 'string', default: 'datasets/ddxplus' } } });
  if (!values.size || !values.out) {
    process.stderr.write('usage: tsx bench/scale/generate.ts --size N --out DIR [--seed 1] [--noise 0.05] [--sample datasets/ddxplus]\n');
    process.exit(2);
  }
  const t0 = performance.now();
  const r = await generate({ size: Number(values.size), outDir: values.out, seed: Number(values.seed), noise: Number(values.noise), sampleDir: values.sample! });
  process.stdout.write(`${r.reused ? 'reused' : 'wrote'} ${r.rows} patients -> ${r.file} in ${((performance.now() - t0) / 1000).toFixed(1)} s (peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB)\n`);
}
