import { createHash } from 'node:crypto';

/**
 * Text helpers shared by the build stages. Ids are derived from normalised content so
 * that the same input always yields the same ids (MERGE-idempotent loads).
 */

/** Lowercase, strip accents, `_` and punctuation become spaces, whitespace collapsed. */
export function normalizeName(raw: string): string {
  return raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[_\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** URL-safe slug for readable ids ("dis:possible-nstemi-stemi"). */
export function slug(raw: string): string {
  const s = normalizeName(raw).replace(/ /g, '-');
  return s.length > 0 ? s.slice(0, 80) : 'x';
}

/** Short stable content hash (hex). */
export function stableHash(...parts: string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\u0000');
  return h.digest('hex').slice(0, 16);
}

/** Gives each name a unique slug id with `prefix`, suffixing -2, -3 on collisions (input order decides). */
export function uniqueSlugIds(prefix: string, names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((n) => {
    const base = `${prefix}:${slug(n)}`;
    const k = (seen.get(base) ?? 0) + 1;
    seen.set(base, k);
    return k === 1 ? base : `${base}-${k}`;
  });
}
