/**
 * Turns the identifier rules' patterns into regular expressions: {name} becomes a fragment or a
 * list (items escaped, longest first). Compiled once per rules object, since the scrubber runs
 * on every note of a build and the rules rarely change.
 */
import { err, ok, type Result } from '../../result.js';
import type { IdentifierKind, IdentifierPattern, IdentifierRules } from './identifier-rules.js';

export interface CompiledPattern {
  kind: IdentifierKind;
  /** Flags g and d (the "id" group's offsets), plus i for case-insensitive patterns. */
  regex: RegExp;
  weakCue: boolean;
  /** What a match becomes ("90+"); null for the kind's placeholder ("[NAME]"). */
  replacement: string | null;
}

export interface CompiledRules {
  patterns: CompiledPattern[];
  notNames: ReadonlySet<string>;
  eponyms: ReadonlySet<string>;
  /** Words that name no place ("community", "cardiology", "clinic"): a facility or town of these alone stays. */
  genericPlaceWords: ReadonlySet<string>;
  /** Countries, regions and states a place cue keeps ("returned from Mexico"). */
  keptPlaces: ReadonlySet<string>;
  /** Matches right after a candidate name: "'s sign", " test", "’ disease". */
  clinicalNounAfter: RegExp;
}

type Macros = Pick<IdentifierRules, 'lists' | 'fragments'>;

const MACRO = /\{([A-Za-z][A-Za-z0-9]*)\}/g;
const MAX_NESTING = 8;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A list item as a regex: spaces match any run of blanks; a case-insensitive list in a case-sensitive pattern gets [aA] classes. */
function itemSource(item: string, foldCase: boolean): string {
  let out = '';
  for (const ch of item) {
    const lower = ch.toLowerCase();
    const upper = ch.toUpperCase();
    if (/\s/.test(ch)) out += '[ \\t]+';
    else if (foldCase && lower !== upper) out += `[${lower}${upper}]`;
    else out += escape(ch);
  }
  return out;
}

function listSource(items: readonly string[], foldCase: boolean): string {
  const sorted = [...items].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
  return `(?:${sorted.map((i) => itemSource(i, foldCase)).join('|')})`;
}

/** The pattern's regex source with every {name} replaced, or why it cannot be built. */
export function expandMacros(source: string, caseInsensitive: boolean, macros: Macros): Result<string, string> {
  let out = source;
  for (let depth = 0; depth < MAX_NESTING; depth++) {
    let problem: string | null = null;
    let changed = false;
    out = out.replace(MACRO, (whole, name: string) => {
      const fragment = macros.fragments[name];
      const list = macros.lists[name];
      if (fragment !== undefined) {
        changed = true;
        return `(?:${fragment})`;
      }
      if (list === undefined) problem ??= `unknown {${name}} (not a fragment or a list)`;
      else if (caseInsensitive && !list.caseInsensitive) problem ??= `list {${name}} is case-sensitive but the pattern is not`;
      else {
        changed = true;
        return listSource(list.items, list.caseInsensitive && !caseInsensitive);
      }
      return whole;
    });
    if (problem !== null) return err(problem);
    if (!changed) return ok(out);
  }
  return err(`fragments nest more than ${MAX_NESTING} deep (does one refer to itself?)`);
}

export function compilePattern(p: IdentifierPattern, macros: Macros): Result<CompiledPattern, string> {
  const source = expandMacros(p.regex, p.caseInsensitive, macros);
  if (!source.ok) return source;
  let regex: RegExp;
  try {
    regex = new RegExp(source.value, p.caseInsensitive ? 'gdi' : 'gd');
  } catch (e) {
    return err(`not a valid regular expression: ${e instanceof Error ? e.message : String(e)}`);
  }
  // An empty match would scrub nothing and stall the scan.
  if (new RegExp(regex.source, regex.flags.replace('g', '')).test('')) return err('matches the empty string');
  return ok({ kind: p.kind, regex, weakCue: p.weakCue ?? false, replacement: p.replacement ?? null });
}

const cache = new WeakMap<IdentifierRules, CompiledRules>();

/** Rules from `loadIdentifierRules` always compile; hand-built rules that do not are a caller bug and throw. */
export function compileIdentifierRules(rules: IdentifierRules): CompiledRules {
  const cached = cache.get(rules);
  if (cached) return cached;
  const patterns = rules.patterns.map((p, i) => {
    const c = compilePattern(p, rules);
    if (!c.ok) throw new Error(`identifier rules: patterns.${i}.regex: ${c.error}`);
    return c.value;
  });
  const nouns = listSource(rules.names.clinicalNouns, false);
  const compiled: CompiledRules = {
    patterns,
    notNames: new Set(rules.names.notNames),
    eponyms: new Set(rules.names.eponyms),
    genericPlaceWords: new Set(rules.places.generic),
    keptPlaces: new Set(rules.places.keep),
    clinicalNounAfter: new RegExp(`^(?:['’]s?)?[ \\t]+${nouns}(?![A-Za-z])`, 'i'),
  };
  cache.set(rules, compiled);
  return compiled;
}
