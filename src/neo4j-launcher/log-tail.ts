import { existsSync, readFileSync, statSync } from 'node:fs';
import type { Probe } from './wait-bolt.js';

/** The last `max` lines matching `pattern` across `files`, joined for a one-line error hint. */
export function tailLines(files: string[], pattern: RegExp, max: number): string {
  const hits: string[] = [];
  for (const f of files) {
    if (!existsSync(f)) continue;
    for (const line of readFileSync(f, 'utf8').split('\n')) if (pattern.test(line)) hits.push(line.trim().slice(0, 240));
  }
  return hits.slice(-max).join(' | ');
}

export function fileSize(file: string): number {
  return existsSync(file) ? statSync(file).size : 0;
}

/** Has `file` logged `text` after byte `offset`? (A probe for waitUntilUp.) */
export function logSays(file: string, offset: number, text: string): Probe {
  if (!existsSync(file)) return { up: false, reason: `${file} not written yet`, fatal: false };
  const fresh = readFileSync(file).subarray(offset).toString('utf8');
  return fresh.includes(text) ? { up: true } : { up: false, reason: `no "${text}" in ${file} yet`, fatal: false };
}
