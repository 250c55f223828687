/**
 * Scrubs patient identifiers from a note at ingest (issues 24 and 47), HIPAA Safe Harbor style
 * and rule based: each identifier becomes a placeholder ("[NAME]", "[FACILITY]", ...), an age
 * over 89 becomes "90+". Names are only taken after a cue (a label, a title, a signature, "his
 * wife"), never from capitalisation alone, so sentence starts and eponyms ("Murphy's sign",
 * "Kernig") stay; a name or a facility once found is then scrubbed wherever else it is written
 * ("Pt: John Smith ... Smith reports", "St. Barnabas Hospital ... back to Barnabas"). Clinical
 * values (ages under 90, vitals, scores, doses) match no pattern. Deterministic; never logs the text.
 */
import { compileIdentifierRules, type CompiledRules } from './compile-patterns.js';
import { IDENTIFIER_KINDS, type IdentifierKind, type IdentifierRules } from './identifier-rules.js';
import { facilityCoreWords, refineFacility, refineLocation } from './refine-places.js';

export interface ScrubResult {
  /** The note with each identifier replaced by `[KIND]` or its pattern's replacement (offsets change). */
  text: string;
  /** How many identifiers of each kind were replaced (every kind present, 0 when none). */
  found: Record<IdentifierKind, number>;
}

interface Hit {
  start: number;
  end: number;
  kind: IdentifierKind;
  replacement: string | null;
}

/** The placeholders a scrubbed note carries ("[NAME]", "[FACILITY]"): readers blank them so they never become words of a finding. */
export const PLACEHOLDER = new RegExp(`\\[(?:${IDENTIFIER_KINDS.join('|')})\\]`, 'g');

const overlapsAny = (h: Pick<Hit, 'start' | 'end'>, hits: readonly Hit[]) => hits.some((o) => h.start < o.end && o.start < h.end);

/** A word as the name lists hold it: lower case, no trailing dot, no possessive. */
const bare = (w: string) => w.toLowerCase().replace(/\.$/, '').replace(/['’]s?$/, '');

/**
 * The name part of a candidate: words up to the first that is no name ("Pt: John Smith Denies"
 * keeps "John Smith"), null when nothing is left, when a weak cue precedes an eponym ("her
 * mother Alzheimer's") or when a clinical noun follows ("Murphy's sign").
 */
function refineName(text: string, hit: Hit, weakCue: boolean, rules: CompiledRules): Hit | null {
  const words = [...text.slice(hit.start, hit.end).matchAll(/[^\s,]+/g)];
  let end = hit.start;
  for (const w of words) {
    if (rules.notNames.has(bare(w[0]))) break;
    end = hit.start + w.index + w[0].length;
  }
  if (end === hit.start) return null;
  if (weakCue && rules.eponyms.has(bare(words[0]![0]))) return null;
  if (rules.clinicalNounAfter.test(text.slice(end, end + 40))) return null;
  return { ...hit, end };
}

function refine(text: string, hit: Hit, weakCue: boolean, rules: CompiledRules): Hit | null {
  if (hit.kind === 'NAME') return refineName(text, hit, weakCue, rules);
  if (hit.kind === 'FACILITY') return refineFacility(text, hit, rules) && hit;
  if (hit.kind === 'LOCATION') {
    const span = refineLocation(text, hit, rules);
    return span && { ...hit, ...span };
  }
  return hit;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The words of a found name or facility to look for elsewhere: as written, in capitals and capitalised. */
function recurringWords(text: string, hit: Hit, rules: CompiledRules): string[] {
  const span = text.slice(hit.start, hit.end);
  if (hit.kind === 'FACILITY') return facilityCoreWords(span, rules);
  if (hit.kind !== 'NAME') return [];
  // Initials ("J.", "JS/mm") and short words would hit ordinary text.
  return [...span.matchAll(/[^\s,]+/g)].map(([w]) => w.replace(/\.$/, '')).filter((w) => w.length >= 2 && !w.includes('/') && !w.includes(':') && !rules.notNames.has(bare(w)));
}

/** Every other place a found name's or facility's words appear, except before a clinical noun. */
function recurrences(text: string, hits: readonly Hit[], rules: CompiledRules): Hit[] {
  const out: Hit[] = [];
  for (const kind of ['NAME', 'FACILITY'] as const) {
    const words = new Set<string>();
    for (const h of hits) {
      if (h.kind !== kind) continue;
      for (const word of recurringWords(text, h, rules)) {
        words.add(word);
        // "GARCIA, MARIA" in a header is "Mrs. Garcia" in the text; a facility's words recur as written
        // (in capitals they would hit headings: "DEVICE" of a device clinic).
        if (kind === 'NAME') words.add(word.toUpperCase()).add(word.charAt(0) + word.slice(1).toLowerCase());
      }
    }
    if (words.size === 0) continue;
    const alternatives = [...words].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).map(escape);
    // Hyphens bound the word too: "Brandt-Daroff exercises" is no mention of a patient Brandt.
    const pattern = new RegExp(`(?<![A-Za-z0-9-])(?:${alternatives.join('|')})(?![A-Za-z0-9-])`, 'g');
    for (const m of text.matchAll(pattern)) {
      const hit: Hit = { start: m.index, end: m.index + m[0].length, kind, replacement: null };
      if (overlapsAny(hit, hits) || overlapsAny(hit, out) || rules.clinicalNounAfter.test(text.slice(hit.end, hit.end + 40))) continue;
      out.push(hit);
    }
  }
  return out;
}

/** The part of a match to scrub: the first group named "id…" that matched, else the whole match ("MRN: [MRN]" keeps its label). */
function idSpan(m: RegExpExecArray): [number, number] {
  const groups = m.indices?.groups ?? {};
  for (const [name, span] of Object.entries(groups)) if (name.startsWith('id') && span) return span;
  return m.indices![0]!;
}

/** Replaces every identifier the rules find; patterns run in file order and an earlier match wins an overlap. */
export function scrubIdentifiers(text: string, rules: IdentifierRules): ScrubResult {
  const compiled = compileIdentifierRules(rules);
  const hits: Hit[] = [];
  for (const p of compiled.patterns) {
    p.regex.lastIndex = 0;
    for (let m = p.regex.exec(text); m !== null; m = p.regex.exec(text)) {
      if (m[0].length === 0) {
        p.regex.lastIndex++;
        continue;
      }
      const [start, end] = idSpan(m);
      const hit = refine(text, { start, end, kind: p.kind, replacement: p.replacement }, p.weakCue, compiled);
      if (hit !== null && !overlapsAny(hit, hits)) hits.push(hit);
    }
  }
  hits.push(...recurrences(text, hits, compiled));
  hits.sort((a, b) => a.start - b.start);

  const found = Object.fromEntries(IDENTIFIER_KINDS.map((k) => [k, 0])) as Record<IdentifierKind, number>;
  const parts: string[] = [];
  let at = 0;
  for (const h of hits) {
    parts.push(text.slice(at, h.start), h.replacement ?? `[${h.kind}]`);
    found[h.kind]++;
    at = h.end;
  }
  parts.push(text.slice(at));
  return { text: parts.join(''), found };
}
