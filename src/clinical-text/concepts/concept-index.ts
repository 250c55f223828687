import { codeKey, type ConceptSet } from './concept-set.js';
import { deriveForms } from './derive-forms.js';
import { equivalentEncodings, type EquivalentEncodings } from './equivalent-encodings.js';
import { familyCore, onlyRelative } from './family-forms.js';
import { formStems, STOPWORDS, tokenize } from './normalize.js';
import type { ConceptLexicon, LexiconContext } from './types.js';
import { snapshotTiers, tierOf, type ConceptTier } from './tiers.js';

/**
 * The concept layer's lookup structure (issue 17): every surface form of every concept the KG
 * can hold, as stem sequences with an inverted index, built once per KG snapshot. Forms come
 * from the lexicon (DDXPlus: reviewed, shipped) and, for features the lexicon does not cover,
 * from the features' own labels (derive-forms.ts), so any source gets a concept layer.
 */
export type ConceptTarget =
  | { kind: 'evidence'; code: string }
  | { kind: 'absent'; code: string }
  | { kind: 'value'; code: string; valueCode: string }
  | { kind: 'site'; valueCode: string; side: 'R' | 'L' | null }
  | { kind: 'trigger'; code: string }
  | { kind: 'feature'; feature: number };

export interface FormEntry {
  form: string;
  stems: string[];
  /** Abbreviations match case-sensitively on the raw tokens. */
  raw: string[] | null;
  target: ConceptTarget;
  context: LexiconContext;
  /** A family-history form's core ("collapsed lung"): read only in findings about a relative (of this class, when set). */
  familyOnly?: { relative: string | null };
  /** A treatment of the concept ("epipen", "on insulin"): its presence says the concept, its absence nothing (LexiconEvidence.treatmentForms). */
  presentOnly?: true;
  /** An event named without its date: read only from a finding dated within this many days (LexiconEvidence.datedForms). */
  withinDays?: number;
}

export interface ConceptIndex {
  entries: FormEntry[];
  /** stem → entries that contain it. */
  byStem: Map<string, number[]>;
  /**
   * stem → entries whose rarest stem it is: each entry once. A form matches only when all its
   * stems are in the finding, so looking entries up by their rarest stem finds every candidate
   * while skipping the thousands of forms a common stem ("pain") is in.
   */
  byAnchor: Map<string, number[]>;
  /**
   * Whether a word the index lacks may be read as a typo or a sound-alike of one it has. Not for a
   * phenotype vocabulary: among its 39k ontology forms an ordinary word too often has a neighbour
   * ("pounding" sounds like "punding").
   */
  fuzzy: boolean;
  /**
   * Stems of the later tiers' forms (phenotype, emergent): real words of another vocabulary, never
   * read as a typo of this one ("grouped vesicles" is no croup when HPO or the notes know "grouped").
   * Empty for a KG of coded features only.
   */
  laterTierStems: ReadonlySet<string>;
  /** Evidence code → its lexicon context and whether its values need a trigger word. */
  evidence: Map<string, { canonical: string; context: LexiconContext; hasTriggers: boolean; scale: { min: number; max: number } | null }>;
  /** Codes of the evidences whose values are body sites, by trigger priority. */
  siteEvidences: string[];
  siteCanonical: Map<string, string>;
  /** Site value code → its side, so a site question's own values ("earache") follow the text's side too. */
  siteSide: Map<string, 'R' | 'L' | null>;
  /** Abbreviation → the form it stands for ("CP" → "chest pain"), so its words can head values and sites. */
  expansions: Map<string, string>;
  /** Yes/no concept → the KG's site-value features that encode the same complaint (equivalent-encodings.ts). */
  equivalents: EquivalentEncodings;
  snapshot: ConceptSet;
}

/** The form whose content words' initials spell the abbreviation (CP → chest pain, N/V → nausea and vomiting). */
function expansionOf(abbreviation: string, forms: readonly string[]): string | null {
  const letters = abbreviation.toLowerCase().replace(/[^a-z]/g, '');
  if (letters.length < 2) return null;
  for (const f of forms) {
    const initials = tokenize(f)
      .filter((t) => !STOPWORDS.has(t.norm))
      .map((t) => t.norm[0])
      .join('');
    if (initials === letters) return f;
  }
  return null;
}

export function featureFor(index: ConceptIndex, code: string, valueCode: string | null): number | undefined {
  return index.snapshot.featureByCode.get(codeKey(code, valueCode));
}

/**
 * `tier`: which of the snapshot's features the index reads (tiers.ts): the coded concepts with
 * the lexicon, a phenotype vocabulary's concepts without it, or 'all' for the embedding fallback.
 */
export function buildConceptIndex(snapshot: ConceptSet, lexicon: ConceptLexicon | null, tier: ConceptTier | 'all' = 'coded'): ConceptIndex {
  const entries: FormEntry[] = [];
  const add = (form: string, target: ConceptTarget, context: LexiconContext, how: { caseSensitive?: boolean; familyOnly?: FormEntry['familyOnly']; presentOnly?: true; withinDays?: number } = {}) => {
    const stems = formStems(form);
    if (stems.length === 0) return;
    entries.push({ form, stems, raw: how.caseSensitive ? tokenize(form).map((t) => t.raw) : null, target, context, ...(how.familyOnly ? { familyOnly: how.familyOnly } : {}), ...(how.presentOnly ? { presentOnly: true as const } : {}), ...(how.withinDays !== undefined ? { withinDays: how.withinDays } : {}) });
  };
  const evidence: ConceptIndex['evidence'] = new Map();
  const siteEvidences: string[] = [];
  const siteCanonical = new Map<string, string>();
  const siteSide = new Map<string, 'R' | 'L' | null>();
  const covered = new Set<string>();
  const expansions = new Map<string, string>();
  const withLexicon = tier === 'coded' || tier === 'all';
  if (lexicon && withLexicon) {
    for (const [code, ev] of Object.entries(lexicon.evidences)) {
      covered.add(code);
      evidence.set(code, { canonical: ev.canonical, context: ev.context, hasTriggers: ev.triggers.length > 0, scale: ev.scale });
      for (const f of new Set([ev.canonical, ...ev.forms])) add(f, { kind: 'evidence', code }, ev.context);
      for (const a of ev.abbreviations) {
        add(a, { kind: 'evidence', code }, ev.context, { caseSensitive: true });
        const expansion = expansionOf(a, ev.forms);
        if (expansion) expansions.set(a, expansion);
      }
      for (const a of ev.absentForms) add(a, { kind: 'absent', code }, ev.context);
      for (const t of ev.treatmentForms ?? []) add(t, { kind: 'evidence', code }, ev.context, { presentOnly: true });
      for (const t of ev.datedForms?.forms ?? []) add(t, { kind: 'evidence', code }, ev.context, { presentOnly: true, withinDays: ev.datedForms!.withinDays });
      // An exposure's cores too: "brother has whooping cough" → a relative's or a classmate's "whooping cough" is a contact.
      if (ev.context === 'family' || ev.context === 'exposure') {
        const relative = onlyRelative(ev.forms);
        const own = new Set([ev.canonical, ...ev.forms]);
        for (const core of new Set(ev.forms.map(familyCore))) if (core && !own.has(core)) add(core, { kind: 'evidence', code }, ev.context === 'exposure' ? 'exposure' : 'family', { familyOnly: { relative } });
      }
      for (const t of ev.triggers) add(t, { kind: 'trigger', code }, ev.context);
      for (const [valueCode, v] of Object.entries(ev.values)) {
        for (const f of new Set([v.canonical, ...v.forms])) add(f, { kind: 'value', code, valueCode }, ev.context);
      }
      if (ev.valueSet === 'sites') siteEvidences.push(code);
    }
    for (const [valueCode, site] of Object.entries(lexicon.sites)) {
      siteCanonical.set(valueCode, site.canonical);
      siteSide.set(valueCode, site.side);
      for (const f of new Set([site.canonical.replace(/^(?:right|left)\s+/i, ''), ...site.forms])) add(f, { kind: 'site', valueCode, side: site.side }, 'patient');
    }
  }
  snapshot.features.forEach((feature, i) => {
    if (feature.code && covered.has(feature.code)) return;
    if (tier !== 'all' && tierOf(feature) !== tier) return;
    for (const f of deriveForms(feature)) add(f, { kind: 'feature', feature: i }, feature.antecedent ? 'history' : 'patient');
  });
  const byStem = new Map<string, number[]>();
  entries.forEach((e, i) => {
    for (const s of new Set(e.stems)) {
      const list = byStem.get(s);
      if (list) list.push(i);
      else byStem.set(s, [i]);
    }
  });
  const byAnchor = new Map<string, number[]>();
  entries.forEach((e, i) => {
    let anchor = e.stems[0]!;
    for (const s of e.stems) if (byStem.get(s)!.length < byStem.get(anchor)!.length) anchor = s;
    const list = byAnchor.get(anchor);
    if (list) list.push(i);
    else byAnchor.set(anchor, [i]);
  });
  const laterTierStems = new Set<string>();
  if (tier === 'coded') {
    for (const feature of snapshot.features) {
      if (tierOf(feature) === 'coded') continue;
      for (const form of feature.forms ?? [feature.text]) for (const s of formStems(form)) laterTierStems.add(s);
    }
  }
  return { entries, byStem, byAnchor, fuzzy: tier !== 'phenotype', laterTierStems, evidence, siteEvidences, siteCanonical, siteSide, expansions, equivalents: lexicon && withLexicon ? equivalentEncodings(lexicon, snapshot) : new Map(), snapshot };
}

const cache = new WeakMap<ConceptSet, WeakMap<object, Map<string, ConceptIndex>>>();
const NO_LEXICON = {};

/**
 * One index per (snapshot, lexicon, tier): built on the first query, reused after. A snapshot of
 * coded features only (every DDXPlus or OMOP build) has one index: 'all' is the coded one.
 */
export function conceptIndexFor(snapshot: ConceptSet, lexicon: ConceptLexicon | null, tier: ConceptTier | 'all' = 'coded'): ConceptIndex {
  const tiers = snapshotTiers(snapshot);
  const t = tier === 'all' && tiers.length === 1 && tiers[0] === 'coded' ? 'coded' : tier;
  const perSnap = cache.get(snapshot) ?? new WeakMap<object, Map<string, ConceptIndex>>();
  cache.set(snapshot, perSnap);
  const key = lexicon ?? NO_LEXICON;
  const byTier = perSnap.get(key) ?? new Map<string, ConceptIndex>();
  perSnap.set(key, byTier);
  const hit = byTier.get(t);
  if (hit) return hit;
  const built = buildConceptIndex(snapshot, lexicon, t);
  byTier.set(t, built);
  return built;
}
