import { existsSync, readFileSync } from 'node:fs';

/** The last `max` lines matching `pattern` across `files`, joined for a one-line error hint. */
export function tailLines(files: string[], pattern: RegExp, max: number): string {
  const hits: string[] = [];
  for (const f of files) {
    if (!existsSync(f)) continue;
    for (const line of readFileSync(f, 'utf8').split('\n')) if (pattern.test(line)) hits.push(line.trim().slice(0, 240));
  }
  return hits.slice(-max).join(' | ');
}
