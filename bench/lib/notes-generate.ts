import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { mulberry32, pick } from './rng.js';
import type { NotesSet } from './notes-kg-run.js';

/**
 * Scale data for the notes build (issue 24: 100k notes within 10 minutes, memory bounded): new
 * notes recombined from the shipped training notes' sentences, per condition (4-9 sentences of
 * the condition's notes, shuffled, with fresh planted identifiers in a third of them), so the
 * vocabulary, section and identifier load per note is that of real notes. Deterministic (seed).
 */
export async function writeScaleNotes(sets: readonly NotesSet[], count: number, path: string, seed = 1): Promise<{ conditions: number }> {
  const pools = new Map<string, string[]>();
  for (const n of sets.flatMap((s) => s.notes)) {
    const pool = pools.get(n.condition) ?? [];
    pools.set(n.condition, pool);
    pool.push(...n.text.split(/(?<=[.!?])\s+|\n+/).map((s) => s.trim()).filter((s) => s.length > 3));
  }
  const conditions = [...pools.keys()].sort();
  const rng = mulberry32(seed);
  const out = createWriteStream(path, { encoding: 'utf8' });
  for (let i = 0; i < count; i++) {
    const condition = conditions[i % conditions.length]!;
    const pool = pools.get(condition)!;
    const k = 4 + Math.floor(rng() * 6);
    const lines = Array.from({ length: k }, () => pick(rng, pool));
    if (rng() < 0.33) lines.unshift(`Pt: ${pick(rng, ['Ann Lee', 'Omar Haddad', 'Jo Smith', 'Li Wei'])} MRN ${String(10_000_000 + Math.floor(rng() * 89_999_999))} seen 2025-0${1 + Math.floor(rng() * 9)}-1${Math.floor(rng() * 9)}.`);
    const row = JSON.stringify({ id: `s${i + 1}`, condition, text: lines.join(' '), age: 18 + Math.floor(rng() * 70), sex: rng() < 0.5 ? 'M' : 'F' });
    if (!out.write(`${row}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
  return { conditions: conditions.length };
}
