/**
 * What the identifier scrubber removes from real notes (issue 47 item 6): every MTSamples note of
 * ../shared (read there, never copied) scrubbed with the shipped rules; printed are counts only,
 * never text: identifiers per kind, notes with at least one, ages kept as 90+, characters removed,
 * and the scrub time per note. A jump in FACILITY or LOCATION after a rules change is the first
 * sign that a pattern eats clinical words; the unit tests over invented notes say which.
 *
 *   node --import tsx bench/identifiers-real-notes.ts [--notes ../shared/datasets/mtsamples/notes.jsonl.gz]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { IDENTIFIER_KINDS, loadIdentifierRules, scrubIdentifiers, type IdentifierKind } from '../src/clinical-text/deidentify/index.js';

const { values: a } = parseArgs({ options: { notes: { type: 'string', default: '../shared/datasets/mtsamples/notes.jsonl.gz' } } });
const raw = readFileSync(a.notes!);
const lines = (a.notes!.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8').split('\n').filter((l) => l.trim() !== '');
const texts = lines.map((l) => String((JSON.parse(l) as { text: unknown }).text ?? ''));

const rules = await loadIdentifierRules();
if (!rules.ok) throw rules.error;

const total = Object.fromEntries(IDENTIFIER_KINDS.map((k) => [k, 0])) as Record<IdentifierKind, number>;
const notesWith = { ...total };
const ms: number[] = [];
let charsIn = 0;
let charsOut = 0;
for (const text of texts) {
  const t0 = performance.now();
  const { text: out, found } = scrubIdentifiers(text, rules.value);
  ms.push(performance.now() - t0);
  charsIn += text.length;
  charsOut += out.length;
  for (const k of IDENTIFIER_KINDS) {
    total[k] += found[k];
    if (found[k] > 0) notesWith[k]++;
  }
}
ms.sort((x, y) => x - y);
const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!.toFixed(2);
console.log(`identifiers scrubbed from ${texts.length} real notes (${(charsIn / 1e6).toFixed(2)} M characters in, ${(charsOut / 1e6).toFixed(2)} M out):`);
console.log('| kind | identifiers | notes with one |');
console.log('| --- | --- | --- |');
for (const k of IDENTIFIER_KINDS) console.log(`| ${k} | ${total[k]} | ${notesWith[k]} |`);
console.log(`scrub time per note: p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${ms.at(-1)!.toFixed(2)} ms`);
