/**
 * Matching quality of the offline embedders (issue 17): how often the nearest DDXPlus evidence
 * (by cosine) to a phrase written the way clinicians and patients write ("can't catch my breath",
 * "SOB", "tarry stools") is the right one. Compares hashed n-grams with WordLlama (256 and 64
 * dims) against four candidate texts per evidence:
 *   question  the evidence's question_en ("Do you have a fever (either felt or ...)?")
 *   feature   the KG feature texts as the DDXPlus source renders them (boolean: "question yes";
 *             categorical: "label: value" per value); an evidence scores its best text
 *   short     question_en with the question frame cut off mechanically ("a fever (either ...)")
 *   lexicon   the concept lexicon's canonical phrase, forms and abbreviations (max over them),
 *             when datasets/lexicon/ddxplus-lexicon.json exists; `lexicon-heldout` scores the
 *             same with the phrase's own verbatim form left out (it must match via the others)
 * A phrase lists the codes that count as right (datasets/phrases/README.md). Also prints embed
 * latency per phrase and the model's load time and memory; with --records, record retrieval:
 * kNN (k=10, cosine) of the demo split's test record texts over its train records, top-1 by
 * neighbour vote.
 *
 *   npx tsx bench/phrase-match.ts [--records] [--misses wordllama-256:lexicon] [--json out.json]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { HashedEmbedder } from '../src/adapters/embeddings/hashed-embedder.js';
import { WordLlamaEmbedder } from '../src/adapters/embeddings/wordllama-embedder.js';
import { SHORT_LABELS } from '../src/sources/ddxplus/short-labels.js';
import { openSource, parseSourceSpec } from '../src/sources/source-spec.js';
import { createSplitAssigner } from '../src/sources/split.js';

const { values: a } = parseArgs({
  options: {
    phrases: { type: 'string', default: 'datasets/phrases/dev.jsonl' },
    evidences: { type: 'string', default: 'datasets/ddxplus/release_evidences.json' },
    lexicon: { type: 'string', default: 'datasets/lexicon/ddxplus-lexicon.json' },
    'model-dir': { type: 'string' },
    records: { type: 'boolean', default: false },
    misses: { type: 'string' },
    json: { type: 'string' },
  },
});

interface Phrase { phrase: string; codes: string[]; style: string }
interface Evidence { question_en: string; data_type: 'B' | 'C' | 'M'; value_meaning: Record<string, { en: string }> }
interface LexiconEvidence { canonical: string; forms: string[]; abbreviations: string[] }
interface Candidate { code: string; text: string }
interface Embedder { name: string; embed(texts: readonly string[]): Float32Array[]; loadMs: number; rssMb: number }

function readPhrases(path: string): Phrase[] {
  return readFileSync(path, 'utf8').split('\n').flatMap((line, i) => {
    if (line.trim() === '') return [];
    const p = JSON.parse(line) as Partial<Phrase>;
    if (typeof p.phrase !== 'string' || !Array.isArray(p.codes) || p.codes.length === 0 || typeof p.style !== 'string') {
      throw new Error(`${path}:${i + 1}: needs phrase, codes (non-empty) and style`);
    }
    return [p as Phrase];
  });
}

/** The question with its frame cut off: "Do you have a cough?" -> "a cough". Mechanical, no hand edits. */
export function shortPhrase(question: string): string {
  const frames = /^(do|does|did|are|is|have|has|were|was)\s+(you|your|the person|there|any)?\s*(currently|recently|ever|previously)?\s*(,?\s*or\s+(do|did) you currently,?)?\s*(have|had|feel|felt|been|noticed|suffer from|take|taking|live|work|drink|consume|smoke|regularly)?\s*(any)?\s*/i;
  return question.replace(/[?:]\s*$/, '').replace(frames, '').trim() || question;
}

function candidateSets(evidences: Record<string, Evidence>, lexicon: Record<string, LexiconEvidence> | null): Record<string, Candidate[]> {
  const entries = Object.entries(evidences);
  const feature = entries.flatMap(([code, ev]): Candidate[] => {
    if (ev.data_type === 'B') return [{ code, text: `${ev.question_en} yes` }];
    const label = SHORT_LABELS[code] ?? ev.question_en;
    const values = Object.values(ev.value_meaning).map((m) => ({ code, text: `${label}: ${m.en}` }));
    return values.length > 0 ? values : [{ code, text: label }];
  });
  const sets: Record<string, Candidate[]> = {
    question: entries.map(([code, ev]) => ({ code, text: ev.question_en })),
    feature,
    short: entries.map(([code, ev]) => ({ code, text: shortPhrase(ev.question_en) })),
  };
  if (lexicon) {
    sets.lexicon = Object.entries(lexicon).flatMap(([code, ev]) =>
      [...new Set([ev.canonical, ...ev.forms, ...ev.abbreviations])].map((text) => ({ code, text })));
  }
  return sets;
}

const dot = (x: Float32Array, y: Float32Array) => {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]! * y[i]!;
  return s;
};

interface Score { n: number; top1: number; top5: number; mrr: number; byStyle: Record<string, { n: number; top1: number; top5: number }>; misses: string[] }

/** `heldOut`: a candidate text equal to the phrase (case-insensitive) is skipped, so the embedder must generalise. */
function score(phrases: Phrase[], pv: Float32Array[], cands: Candidate[], cv: Float32Array[], heldOut = false): Score {
  const s: Score = { n: phrases.length, top1: 0, top5: 0, mrr: 0, byStyle: {}, misses: [] };
  const lower = cands.map((c) => c.text.toLowerCase());
  phrases.forEach((p, i) => {
    const best = new Map<string, number>();
    const own = p.phrase.toLowerCase();
    cands.forEach((c, j) => {
      if (!(heldOut && lower[j] === own)) best.set(c.code, Math.max(best.get(c.code) ?? -Infinity, dot(pv[i]!, cv[j]!)));
    });
    const ranked = [...best.entries()].sort((x, y) => y[1] - x[1]).map(([code]) => code);
    const rank = ranked.findIndex((code) => p.codes.includes(code));
    const st = (s.byStyle[p.style] ??= { n: 0, top1: 0, top5: 0 });
    st.n++;
    if (rank === 0) { s.top1++; st.top1++; }
    if (rank >= 0 && rank < 5) { s.top5++; st.top5++; }
    if (rank >= 0) s.mrr += 1 / (rank + 1);
    if (rank !== 0) s.misses.push(`${p.phrase} [${p.codes.join('|')}] -> ${ranked.slice(0, 3).join(', ')} (gold rank ${rank + 1})`);
  });
  s.mrr /= phrases.length;
  return s;
}

async function embedders(): Promise<Embedder[]> {
  const hashed = new HashedEmbedder();
  const out: Embedder[] = [{ name: 'hashed', embed: (t) => hashed.embedVectors(t), loadMs: 0, rssMb: 0 }];
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const r = await WordLlamaEmbedder.load(a['model-dir'] ? { dir: a['model-dir'] } : {});
  if (!r.ok) throw r.error;
  const loadMs = performance.now() - t0;
  const rssMb = (process.memoryUsage().rss - rss0) / 2 ** 20;
  for (const dim of [256, 64] as const) {
    const wl = r.value.withDim(dim);
    if (!wl.ok) throw wl.error;
    out.push({ name: `wordllama-${dim}`, embed: (t) => wl.value.embedVectors(t), loadMs, rssMb });
  }
  // Both at once: the concatenation of the two unit vectors, each scaled by sqrt(1/2), so the
  // cosine is the mean of the two cosines (surface forms and typos from one, meaning from the other).
  const half = Math.SQRT1_2;
  const concat = (h: Float32Array, w: Float32Array) => {
    const v = new Float32Array(h.length + w.length);
    for (let i = 0; i < h.length; i++) v[i] = h[i]! * half;
    for (let i = 0; i < w.length; i++) v[h.length + i] = w[i]! * half;
    return v;
  };
  const wl256 = r.value;
  out.push({ name: 'hashed+wordllama-256', embed: (t) => { const w = wl256.embedVectors(t); return hashed.embedVectors(t).map((h, i) => concat(h, w[i]!)); }, loadMs, rssMb });
  return out;
}

/** Mean microseconds per text, one text per call (as the query path embeds findings), best of 3 passes. */
function latencyUs(e: Embedder, texts: readonly string[]): number {
  let best = Infinity;
  for (let pass = 0; pass < 3; pass++) {
    const t0 = performance.now();
    for (const t of texts) e.embed([t]);
    best = Math.min(best, ((performance.now() - t0) * 1000) / texts.length);
  }
  return best;
}

async function recordRetrieval(list: Embedder[]): Promise<Record<string, { train: number; test: number; top1: number; recordUs: number }>> {
  const parts = { train: [] as { text: string; dx: string }[], test: [] as { text: string; dx: string }[] };
  // One pass over the source, each record to its part.
  const partOf = createSplitAssigner({ seed: 1, testFraction: 0.4 });
  const source = await openSource(parseSourceSpec('ddxplus:datasets/ddxplus'), { strict: false });
  try {
    for await (const r of source.records()) parts[partOf(r)].push({ text: r.text, dx: r.diagnosis });
  } finally {
    await source.close();
  }
  const out: Record<string, { train: number; test: number; top1: number; recordUs: number }> = {};
  for (const e of list) {
    const t0 = performance.now();
    const train = e.embed(parts.train.map((r) => r.text));
    const recordUs = ((performance.now() - t0) * 1000) / parts.train.length;
    const test = e.embed(parts.test.map((r) => r.text));
    let right = 0;
    test.forEach((q, i) => {
      const top = train.map((v, j) => [dot(q, v), j] as const).sort((x, y) => y[0] - x[0]).slice(0, 10);
      const votes = new Map<string, number>();
      for (const [sim, j] of top) votes.set(parts.train[j]!.dx, (votes.get(parts.train[j]!.dx) ?? 0) + sim);
      const winner = [...votes.entries()].sort((x, y) => y[1] - x[1])[0]![0];
      if (winner === parts.test[i]!.dx) right++;
    });
    out[e.name] = { train: train.length, test: test.length, top1: right / test.length, recordUs };
  }
  return out;
}

const pct = (x: number, n: number) => `${((100 * x) / n).toFixed(1)}%`;
const phrases = readPhrases(a.phrases!);
const evidences = JSON.parse(readFileSync(a.evidences!, 'utf8')) as Record<string, Evidence>;
const lexiconFile = existsSync(a.lexicon!) ? (JSON.parse(readFileSync(a.lexicon!, 'utf8')) as { evidences: Record<string, LexiconEvidence> }) : null;
const sets = candidateSets(evidences, lexiconFile?.evidences ?? null);
const list = await embedders();
const results: Record<string, Record<string, Score>> = {};
const styles = [...new Set(phrases.map((p) => p.style))].sort();

console.log(`${phrases.length} phrases (${styles.map((s) => `${s} ${phrases.filter((p) => p.style === s).length}`).join(', ')}); candidates: ${Object.entries(sets).map(([k, v]) => `${k} ${v.length}`).join(', ')}${lexiconFile ? '' : ' (no lexicon file)'}`);
if (lexiconFile) {
  const forms = new Set(sets.lexicon!.map((c) => c.text.toLowerCase()));
  console.log(`dev phrases found verbatim among lexicon forms: ${phrases.filter((p) => forms.has(p.phrase.toLowerCase())).length}`);
}
console.log(`\n| embedder | candidates | top-1 | top-5 | MRR | ${styles.map((s) => `top-1 ${s}`).join(' | ')} |`);
console.log(`| --- | --- | --- | --- | --- | ${styles.map(() => '---').join(' | ')} |`);
for (const e of list) {
  const pv = e.embed(phrases.map((p) => p.phrase));
  results[e.name] = {};
  for (const [setName, cands] of Object.entries(sets)) {
    const cv = e.embed(cands.map((c) => c.text));
    // The lexicon may hold a dev phrase verbatim (cosine 1 for any embedder): also score without it.
    const runs: [string, boolean][] = setName === 'lexicon' ? [['lexicon', false], ['lexicon-heldout', true]] : [[setName, false]];
    for (const [name, heldOut] of runs) {
      const s = score(phrases, pv, cands, cv, heldOut);
      results[e.name]![name] = s;
      const st = styles.map((k) => pct(s.byStyle[k]?.top1 ?? 0, s.byStyle[k]?.n ?? 1)).join(' | ');
      console.log(`| ${e.name} | ${name} | ${pct(s.top1, s.n)} | ${pct(s.top5, s.n)} | ${s.mrr.toFixed(3)} | ${st} |`);
    }
  }
}
const speed = list.map((e) => ({ name: e.name, phraseUs: latencyUs(e, phrases.map((p) => p.phrase)), loadMs: e.loadMs, rssMb: e.rssMb }));
console.log('\n| embedder | embed µs/phrase | load ms | RSS after load (MB) |\n| --- | --- | --- | --- |');
for (const s of speed) console.log(`| ${s.name} | ${s.phraseUs.toFixed(1)} | ${s.loadMs.toFixed(0)} | ${s.rssMb.toFixed(0)} |`);
if (a.misses) {
  const [name, setName] = a.misses.split(':');
  console.log(`\nmisses of ${a.misses}:\n${(results[name!]?.[setName!]?.misses ?? [`no such run ${a.misses}`]).join('\n')}`);
}
let records: Awaited<ReturnType<typeof recordRetrieval>> | null = null;
if (a.records) {
  records = await recordRetrieval(list);
  console.log('\nrecord retrieval (demo split seed 1, 0.4; kNN k=10, similarity-weighted vote)\n| embedder | train / test | top-1 | embed µs/record |\n| --- | --- | --- | --- |');
  for (const [name, r] of Object.entries(records)) console.log(`| ${name} | ${r.train} / ${r.test} | ${pct(r.top1, 1)} | ${r.recordUs.toFixed(0)} |`);
}
if (a.json) writeFileSync(a.json, JSON.stringify({ phrases: phrases.length, results, speed, records }, null, 2));
