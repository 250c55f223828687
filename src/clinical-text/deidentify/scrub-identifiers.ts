/**
 * Scrubs patient identifiers from a note at ingest (issue 24), HIPAA Safe Harbor style and rule
 * based: each identifier becomes a placeholder ("[NAME]", "[DATE]", ...). Names are only taken
 * after a cue (a label, a title, a signature, "his wife"), never from capitalisation alone, so
 * sentence starts and eponyms ("Murphy's sign", "Kernig") stay; a name once found is then
 * scrubbed wherever else it is written ("Pt: John Smith ... Smith reports"). Clinical values
 * (ages, vitals, scores, doses) match no pattern. Deterministic; never logs the text.
 */
import { compileIdentifierRules, type CompiledRules } from './compile-patterns.js';
import { IDENTIFIER_KINDS, type IdentifierKind, type IdentifierRules } from './identifier-rules.js';

export interface ScrubResult {
  /** The note with each identifier replaced by `[KIND]` (offsets change). */
  text: string;
  /** How many identifiers of each kind were replaced (every kind present, 0 when none). */
  found: Record<IdentifierKind, number>;
}

interface Hit {
  start: number;
  end: number;
  kind: IdentifierKind;
}

const overlapsAny = (h: Hit, hits: readonly Hit[]) => hits.some((o) => h.start < o.end && o.start < h.end);

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

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every other place a found name's words appear (as written, in capitals or capitalised), except before a clinical noun. */
function propagatedNames(text: string, hits: readonly Hit[], rules: CompiledRules): Hit[] {
  const words = new Set<string>();
  for (const h of hits) {
    if (h.kind !== 'NAME') continue;
    for (const [w] of text.slice(h.start, h.end).matchAll(/[^\s,]+/g)) {
      const word = w.replace(/\.$/, '');
      // Initials ("J.") and short words would hit ordinary text.
      if (word.length < 2 || rules.notNames.has(bare(word))) continue;
      const title = word.charAt(0) + word.slice(1).toLowerCase();
      // "GARCIA, MARIA" in a header is "Mrs. Garcia" in the text.
      words.add(word).add(word.toUpperCase()).add(title);
    }
  }
  if (words.size === 0) return [];
  const alternatives = [...words].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).map(escape);
  // Hyphens bound the word too: "Brandt-Daroff exercises" is no mention of a patient Brandt.
  const pattern = new RegExp(`(?<![A-Za-z0-9-])(?:${alternatives.join('|')})(?![A-Za-z0-9-])`, 'g');
  const out: Hit[] = [];
  for (const m of text.matchAll(pattern)) {
    const hit: Hit = { start: m.index, end: m.index + m[0].length, kind: 'NAME' };
    if (overlapsAny(hit, hits) || rules.clinicalNounAfter.test(text.slice(hit.end, hit.end + 40))) continue;
    out.push(hit);
  }
  return out;
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
      // With an "id" group only that part goes ("MRN: [MRN]"); the label stays readable.
      const [start, end] = m.indices?.groups?.['id'] ?? m.indices![0]!;
      const candidate: Hit = { start, end, kind: p.kind };
      const hit = p.kind === 'NAME' ? refineName(text, candidate, p.weakCue, compiled) : candidate;
      if (hit !== null && !overlapsAny(hit, hits)) hits.push(hit);
    }
  }
  hits.push(...propagatedNames(text, hits, compiled));
  hits.sort((a, b) => a.start - b.start);

  const found = Object.fromEntries(IDENTIFIER_KINDS.map((k) => [k, 0])) as Record<IdentifierKind, number>;
  const parts: string[] = [];
  let at = 0;
  for (const h of hits) {
    parts.push(text.slice(at, h.start), `[${h.kind}]`);
    found[h.kind]++;
    at = h.end;
  }
  parts.push(text.slice(at));
  return { text: parts.join(''), found };
}
