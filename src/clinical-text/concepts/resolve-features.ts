import type { Polarity } from '../../domain/record.js';
import type { InputFinding } from '../findings.js';
import { featureFor, type ConceptIndex } from './concept-index.js';
import { joinEquivalent } from './equivalent-encodings.js';
import { findMentions, type Mention } from './find-mentions.js';
import { tokenize, type Token } from './normalize.js';
import { ownSiteQuestion } from './own-site-question.js';
import { BOTH, LEFT, RIGHT } from './side-words.js';

/**
 * From the concept mentions of one finding to KG features (issue 17's concept layer):
 * yes/no concepts map to their feature; answer values (pain character, rash colour, travel
 * region) need their question's head word in the finding or its clause ("sharp" is a pain
 * character only next to "pain"); body sites attach to the nearest trigger (pain → location,
 * "radiating to" → radiation, rash → rash site, swelling → swelling site) with the side the
 * text gives; a 0-10 intensity goes to the scale of the same head. Findings about family
 * members only reach family-history concepts (family-forms.ts); a stopped habit reaches its
 * past-habit question, not the present one; one complaint coded two ways is one observation
 * (equivalent-encodings.ts); hypothetical and uncertain findings reach nothing.
 */
export interface ConceptMatch {
  feature: number;
  similarity: number;
  polarity: Polarity;
  /** Matches with the same key are alternatives of one concept (e.g. "chest" → several sites). */
  alternatives: string;
  via: string;
}

export interface ResolveInput {
  finding: InputFinding;
  tokens: Token[];
  /** Tokens of the finding's clause, for head words said once for several findings. */
  clauseTokens: Token[];
}

const CESSATION = /^(?:used to|former(?:ly)?|ex\b|ex-|quit|stopped|gave up|no longer)/i;

function sideNear(tokens: Token[], at: number[], fallback: 'R' | 'L' | 'both' | undefined): 'R' | 'L' | 'both' | undefined {
  // Before any word of the mention: "pain in my left joints" sides the form "joint pain".
  for (const p of [...at].sort((a, b) => a - b)) {
    for (let i = p - 1; i >= Math.max(0, p - 2); i--) {
      const n = tokens[i]!.norm;
      if (LEFT.has(n)) return 'L';
      if (RIGHT.has(n)) return 'R';
      if (BOTH.has(n)) return 'both';
    }
  }
  const next = tokens[Math.max(...at) + 1]?.norm;
  if (next === 'r' || next === 'l') return next === 'r' ? 'R' : 'L';
  return fallback;
}

/**
 * A sided site value the text's side rules out. A side word next to the site wins; else the
 * finding's side (from the text analysis) narrows every site of the finding; unsided values stay.
 */
function otherSide(side: 'R' | 'L' | 'both' | undefined, valueSide: 'R' | 'L' | null): boolean {
  return side !== undefined && side !== 'both' && valueSide !== null && valueSide !== side;
}

/**
 * The site questions a body site belongs to: those of the nearest head word before it, else after
 * it. A head word can select several ("lump": swelling site or affected skin region); the caller
 * keeps the ones the KG holds, as alternatives.
 */
function siteEvidences(index: ConceptIndex, site: Mention, triggers: Mention[], words: Token[]): string[] {
  const pos = Math.min(...site.at);
  const usable = triggers.filter((t) => index.siteEvidences.includes((t.entry.target as { code: string }).code));
  const before = usable.filter((t) => Math.max(...t.at) < pos).sort((a, b) => Math.max(...b.at) - Math.max(...a.at));
  const after = usable.filter((t) => Math.min(...t.at) > pos).sort((a, b) => Math.min(...a.at) - Math.min(...b.at));
  const t = before[0] ?? after[0];
  if (!t) return [];
  const same = usable.filter((u) => u.at.join(',') === t.at.join(','));
  // Of head words read from the same word, the ones written as such win: "sore" is a pain word, not "sores".
  const exact = same.filter((u) => u.at.length === 1 && words[u.at[0]!]?.norm === u.entry.form);
  return [...new Set((exact.length > 0 ? exact : same).map((u) => (u.entry.target as { code: string }).code))];
}

/**
 * Abbreviations also stand for their words ("crushing CP" reads as "crushing CP chest pain"), so
 * the expansion can head values and sites; the abbreviation token stays for its own match.
 */
function expand(index: ConceptIndex, tokens: Token[]): Token[] {
  if (index.expansions.size === 0) return tokens;
  return tokens.flatMap((t) => {
    const words = index.expansions.get(t.raw);
    return words ? [t, ...tokenize(words).map((w) => ({ ...w, start: t.start, end: t.end }))] : [t];
  });
}

/**
 * A habit or exposure that stopped ("ex-smoker", "used to run daily", "quit drinking"). It is read
 * with its cue, so a question about the past habit ("Are you a former smoker?") can match it; the
 * present-tense questions ("Do you smoke cigarettes?") it would otherwise reach are left unsaid
 * rather than answered no: DDXPlus's former smokers mostly answer yes to both.
 */
export function stoppedHabit(f: InputFinding): boolean {
  return f.temporality === 'historical' && f.polarity === 'present' && CESSATION.test(f.cue ?? '');
}

/**
 * A trigger word inside a compound that names something else is no trigger: "blood pressure
 * machine" has no pain in it ("pressure" heads pain characters: "my pulse is all over the shop"
 * after it had read as a pulsing pain).
 */
const NOT_AFTER: Readonly<Record<string, readonly string[]>> = { pressure: ['blood', 'bp', 'eye', 'intraocular', 'tyre', 'tire', 'water'] };

function compoundWord(tokens: readonly Token[], m: Mention): boolean {
  if (m.at.length !== 1) return false;
  const k = m.at[0]!;
  const before = NOT_AFTER[tokens[k]?.norm ?? ''];
  return before !== undefined && k > 0 && before.includes(tokens[k - 1]!.norm);
}

export function resolveFeatures(index: ConceptIndex, input: ResolveInput): ConceptMatch[] {
  const f = input.finding;
  if (f.assertion === 'hypothetical' || f.assertion === 'possible') return [];
  const stopped = stoppedHabit(f);
  const cueTokens = stopped ? tokenize(f.cue!) : [];
  const tokens = expand(index, [...cueTokens, ...input.tokens]);
  // Cores of relatives' forms are read in anyone else's finding; whose concepts they may reach is `allowed` below.
  const found = findMentions(index, tokens, { family: f.experiencer === 'family' || f.experiencer === 'other', said: `${f.cue ?? ''} ${f.text}` });
  const mentions = f.polarity === 'absent' ? deniedInCircumstanceOnly(tokens, found) : found;
  const clauseTokens = expand(index, input.clauseTokens);
  const clauseTriggers = clauseTokens.length > 0 ? findMentions(index, clauseTokens).filter((m) => m.entry.target.kind === 'trigger' && !compoundWord(clauseTokens, m)) : [];
  const ownTriggers = mentions.filter((m) => m.entry.target.kind === 'trigger' && !compoundWord(tokens, m));
  const triggerCodes = new Set([...ownTriggers, ...clauseTriggers].map((m) => (m.entry.target as { code: string }).code));
  // Someone else's condition is not the patient's: a relative's reaches family-history and
  // exposure concepts ("father smokes", "brother has whooping cough"), anyone else's exposures only.
  const allowed: ReadonlySet<string> | null = f.experiencer === 'family' ? new Set(['family', 'exposure']) : f.experiencer === 'other' ? new Set(['exposure']) : null;
  const out: ConceptMatch[] = [];
  const push = (feature: number | undefined, m: Mention, polarity: Polarity, alternatives: string, similarity = m.score) => {
    if (feature === undefined) return;
    if (allowed && !allowed.has(m.entry.context)) return;
    // An absent treatment says nothing of the condition it treats ("we don't have an epipen").
    if (polarity === 'absent' && m.entry.presentOnly) return;
    // An event named without its date ("knee replaced") speaks of a recent window only when dated within it ("2 weeks ago").
    if (m.entry.withinDays !== undefined && !((f.values?.duration?.days ?? Infinity) <= m.entry.withinDays)) return;
    // A stopped habit's present-tense exposure: only a form that carries the cue ("ex-smoker") speaks.
    if (stopped && m.entry.context === 'exposure' && m.at.every((p) => p >= cueTokens.length)) return;
    out.push({ feature, similarity, polarity, alternatives, via: m.via });
  };
  const polarity: Polarity = f.polarity;
  for (const m of mentions) {
    const t = m.entry.target;
    // One phrase naming several yes/no concepts ("DOE": breathless on minimal effort, or short of
    // breath; "fatigue": constant tiredness or exhaustion) is one observation with alternatives.
    if (t.kind === 'evidence') push(featureFor(index, t.code, null), m, polarity, `ev@${[...m.at].sort((a, b) => a - b).join(',')}`);
    else if (t.kind === 'absent') push(featureFor(index, t.code, null), m, polarity === 'absent' ? 'present' : 'absent', `${t.code}`);
    else if (t.kind === 'feature') push(t.feature, m, polarity, `f${t.feature}`);
    else if (t.kind === 'value') {
      // "sharp" is a pain character only next to a pain word; a site question's own values ("earache") carry their head.
      const ev = index.evidence.get(t.code);
      const siteValue = index.siteEvidences.includes(t.code);
      if (ev?.hasTriggers && !siteValue && !triggerCodes.has(t.code)) continue;
      if (siteValue && otherSide(sideNear(tokens, m.at, f.values?.side), index.siteSide.get(t.valueCode) ?? null)) continue;
      push(featureFor(index, t.code, t.valueCode), m, polarity, `${t.code}:${m.entry.form}`);
    }
  }
  // Body sites: one alternatives group per site mention; the side narrows the values.
  const sites = mentions.filter((m) => m.entry.target.kind === 'site');
  const groups = new Map<string, Mention[]>();
  for (const s of sites) groups.set(s.at.join(','), [...(groups.get(s.at.join(',')) ?? []), s]);
  for (const [at, group] of groups) {
    const own = siteEvidences(index, group[0]!, ownTriggers, tokens);
    // A site inside a yes/no concept's own words ("stuffy nose") is that concept's, not a head word's from elsewhere in the clause.
    const holder = mentions.find((m) => m.entry.target.kind === 'evidence' && group[0]!.at.every((p) => m.at.includes(p)));
    const holderSite = holder ? ownSiteQuestion(index, (holder.entry.target as { code: string }).code) : null;
    const codes = holderSite ? [holderSite] : own.length > 0 || holder ? own : siteEvidences(index, group[0]!, clauseTriggers, clauseTokens);
    const side = sideNear(tokens, group[0]!.at, f.values?.side);
    for (const code of codes) {
      for (const s of group) {
        const t = s.entry.target as { kind: 'site'; valueCode: string; side: 'R' | 'L' | null };
        if (otherSide(side, t.side)) continue;
        push(featureFor(index, code, t.valueCode), s, polarity, `site@${at}`, side || t.side === null ? s.score : s.score * 0.95);
      }
    }
  }
  // A 0-10 intensity: the scale question of the head word that carries one (pain, itching).
  const intensity = f.values?.intensity;
  if (intensity !== undefined && polarity === 'present') {
    for (const m of [...ownTriggers, ...clauseTriggers]) {
      const code = (m.entry.target as { code: string }).code;
      const scale = index.evidence.get(code)?.scale;
      if (!scale) continue;
      const v = Math.round(Math.min(scale.max, Math.max(scale.min, intensity)));
      push(featureFor(index, code, String(v)), { ...m, via: `intensity ${v}/${scale.max}` }, 'present', `${code}:scale`, 1);
      break;
    }
  }
  joinEquivalent(index, out);
  return polarity === 'absent' ? deniedAtSiteOnly(index, out) : out;
}

/**
 * "No flank pain" denies pain at the flank, not pain: when a denied finding names an answer of a
 * follow-on question (a site, "headache" as pain at the head), the parent question the answer sits
 * under ("any pain?") is left unsaid.
 */
function deniedAtSiteOnly(index: ConceptIndex, out: ConceptMatch[]): ConceptMatch[] {
  const answers = out.filter((m) => index.snapshot.features[m.feature]!.valueCode !== null);
  const parents = new Set(answers.map((m) => index.snapshot.features[m.feature]!.parentCode).filter((c): c is string => !!c));
  if (parents.size === 0) return out;
  return out.filter((m) => {
    const f = index.snapshot.features[m.feature]!;
    return !(m.polarity === 'absent' && f.code !== null && parents.has(f.code) && f.valueCode === null);
  });
}

/** Words that open the circumstance of a finding: "pain when walking", "cough with sputum", "SOB at rest". */
const CIRCUMSTANCE = new Set(['when', 'whenever', 'on', 'with', 'during', 'while', 'after', 'at']);

/**
 * "No pain when I walk uphill" denies the pain's circumstance, not the pain; "no cough with
 * sputum" a productive cough, not a cough. In a denied finding whose words after a circumstance
 * word name a concept, the concepts named wholly before that word are left unsaid (a dev-e GERD
 * note's burning chest pain was denied by "no pain when I walk uphill"). Without a concept after it
 * ("no pain at all") the denial stands whole.
 */
function deniedInCircumstanceOnly(tokens: readonly Token[], mentions: Mention[]): Mention[] {
  const cut = tokens.findIndex((t, i) => i > 0 && CIRCUMSTANCE.has(t.norm));
  if (cut < 0) return mentions;
  const after = mentions.filter((m) => m.entry.target.kind !== 'site' && m.at.every((p) => p >= cut));
  if (after.length === 0) return mentions;
  return mentions.filter((m) => !m.at.every((p) => p < cut));
}
