/**
 * Words that say a side of the body, one list for the concept layer: resolve-features.ts sides a
 * site value by the one nearest it, find-mentions.ts lets one stand inside a site's phrase ("lower
 * left abdomen" is the lower abdomen, on the left).
 */
export const LEFT: ReadonlySet<string> = new Set(['left', 'l', 'lt']);
export const RIGHT: ReadonlySet<string> = new Set(['right', 'r', 'rt']);
export const BOTH: ReadonlySet<string> = new Set(['bilateral', 'both', 'bilat']);

export const isSideWord = (norm: string): boolean => LEFT.has(norm) || RIGHT.has(norm) || BOTH.has(norm);
