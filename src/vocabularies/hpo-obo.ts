import type { Vocabulary, VocabularyConcept } from '../clinical-text/vocabulary.js';

/**
 * The Human Phenotype Ontology (hp.obo, OBO 1.2/1.4 flat file) read into a Vocabulary: the open
 * phenotype vocabulary notes are read into (issue 24, docs/vocabularies.md).
 *
 * Kept: the non-obsolete terms under "Phenotypic abnormality" (HP:0000118, itself included),
 * following is_a transitively; the other branches (mode of inheritance, clinical modifier,
 * frequency, past medical history, blood group) name no finding a note describes.
 * - `forms`: the name, then the EXACT synonyms and the synonyms of type `layperson` whatever
 *   their scope ("Fever" EXACT layperson, "Shortness of breath" RELATED layperson); RELATED,
 *   BROAD and NARROW synonyms are not forms of the concept, and neither are synonyms typed
 *   `obsolete_synonym` ("discarded/obsoleted synonym"). Duplicates (ignoring case) are dropped,
 *   the first spelling kept.
 * - `xrefs`: the xref identifiers as written ("SNOMEDCT_US:386661006", "UMLS:C0015967"), without
 *   the quoted description some carry (`xref: MEDDRA:10037844 "Rash"`).
 * - `parents`: the is_a codes that are themselves kept, so walking parents never leaves the
 *   vocabulary (in the 2025-01-16 release 3 terms have a second parent outside the branch).
 * OBO escapes (\" \\ \: \, \! \n \t \W ...) are decoded; trailing `! comments` and `{modifiers}`
 * are dropped. The whole file is read at once (10 MB, ~0.2 s): no streaming needed.
 */

/** The root of the kept branch. */
export const HPO_PHENOTYPIC_ABNORMALITY = 'HP:0000118';

/**
 * The acknowledgement HPO's licence (https://hpo.jax.org/app/license) asks every service or
 * product using it to display, with the release it uses in place of `{version}`, followed by
 * the citation its licence page asks for.
 */
export const HPO_ATTRIBUTION =
  'This service/product is using the Human Phenotype Ontology (version {version}). ' +
  'Find out more at http://www.human-phenotype-ontology.org. ' +
  'Köhler S, Doelken SC, Mungall CJ, Bauer S, Firth HV, et al. The Human Phenotype Ontology project: ' +
  'linking molecular biology and disease through phenotype data. Nucleic Acids Res. 2014;42(D1):D966-D974. ' +
  'doi:10.1093/nar/gkt1026. Licence: https://hpo.jax.org/app/license';

export const HPO_VOCABULARY = 'HPO';

interface RawTerm {
  id: string;
  name: string;
  obsolete: boolean;
  forms: string[];
  xrefs: string[];
  isA: string[];
}

/** Parse hp.obo text. Never throws on odd lines: a line it does not know is skipped. */
export function parseHpoObo(text: string): Vocabulary {
  const lines = text.split('\n');
  const terms = new Map<string, RawTerm>();
  let dataVersion = '';
  let versionInfo = '';
  let inHeader = true;
  let term: RawTerm | null = null;

  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (line.length === 0) continue;
    if (line.charCodeAt(line.length - 1) === 13 /* \r */) line = line.slice(0, -1);
    if (line.charCodeAt(0) === 91 /* [ */) {
      inHeader = false;
      const stanza = line.trim();
      term = stanza === '[Term]' ? { id: '', name: '', obsolete: false, forms: [], xrefs: [], isA: [] } : null;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const tag = line.slice(0, colon);
    const raw = line.slice(colon + 1).trimStart();
    if (inHeader) {
      if (tag === 'data-version') dataVersion = plainValue(raw);
      else if (tag === 'property_value' && raw.startsWith('owl:versionInfo ')) versionInfo = quotedString(raw, raw.indexOf('"'))?.value ?? '';
      continue;
    }
    if (term === null) continue;
    switch (tag) {
      case 'id':
        term.id = firstToken(raw);
        if (term.id) terms.set(term.id, term);
        break;
      case 'name':
        term.name = plainValue(raw);
        break;
      case 'is_obsolete':
        term.obsolete = plainValue(raw) === 'true';
        break;
      case 'synonym': {
        const form = synonymForm(raw);
        if (form) term.forms.push(form);
        break;
      }
      case 'xref': {
        const x = firstToken(raw);
        if (x) term.xrefs.push(x);
        break;
      }
      case 'is_a': {
        const p = firstToken(raw);
        if (p) term.isA.push(p);
        break;
      }
    }
  }

  const kept = descendants(terms, HPO_PHENOTYPIC_ABNORMALITY);
  const concepts: VocabularyConcept[] = [];
  for (const t of terms.values()) {
    if (!kept.has(t.id) || !t.name) continue;
    concepts.push({
      vocabulary: HPO_VOCABULARY,
      code: t.id,
      label: t.name,
      forms: dedupe([t.name, ...t.forms]),
      xrefs: [...new Set(t.xrefs)],
      parents: [...new Set(t.isA.filter((p) => kept.has(p)))],
    });
  }
  const version = dataVersion.replace(/^hp\/releases\//, '') || versionInfo || 'unknown';
  return { name: HPO_VOCABULARY, attribution: HPO_ATTRIBUTION.replace('{version}', version), concepts };
}

/** The non-obsolete terms reachable from `root` down is_a links (root included). */
function descendants(terms: Map<string, RawTerm>, root: string): Set<string> {
  const children = new Map<string, string[]>();
  for (const t of terms.values()) {
    if (t.obsolete) continue;
    for (const p of t.isA) {
      const list = children.get(p);
      if (list) list.push(t.id);
      else children.set(p, [t.id]);
    }
  }
  const kept = new Set<string>();
  const rootTerm = terms.get(root);
  if (!rootTerm || rootTerm.obsolete) return kept;
  const stack = [root];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (kept.has(id)) continue;
    kept.add(id);
    for (const c of children.get(id) ?? []) if (!kept.has(c)) stack.push(c);
  }
  return kept;
}

/**
 * The text of a synonym line when it is a form of the concept: `"text" SCOPE [TYPE] [xrefs]`.
 * EXACT synonyms and `layperson` ones of any scope; never `obsolete_synonym`, nor a two-letter abbreviation.
 */
function synonymForm(raw: string): string | null {
  const q = quotedString(raw, raw.indexOf('"'));
  if (!q) return null;
  const rest = raw.slice(q.end).trim().split(/\s+/);
  const scope = rest[0] ?? '';
  const type = rest[1] !== undefined && !rest[1].startsWith('[') && !rest[1].startsWith('{') ? rest[1] : '';
  if (type === 'obsolete_synonym') return null;
  if (scope !== 'EXACT' && type !== 'layperson') return null;
  const form = q.value.trim();
  // A two-letter abbreviation says another thing in notes more often than the phenotype: "BO
  // normal" is bowels open (not body odor), "CP" chest pain (not cerebral palsy), "RA" room air.
  if (type === 'abbreviation' && form.length <= 2) return null;
  return form.length > 0 ? form : null;
}

/** The quoted string starting at `start` (a `"`), decoded, and the index just after its closing quote. */
function quotedString(raw: string, start: number): { value: string; end: number } | null {
  if (start < 0 || raw[start] !== '"') return null;
  let out = '';
  for (let i = start + 1; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) {
      out += unescape(raw[++i]!);
    } else if (c === '"') {
      return { value: out, end: i + 1 };
    } else {
      out += c;
    }
  }
  return null; // unterminated
}

/** An unquoted value (name, data-version): escapes decoded, up to an unescaped `!` comment. */
function plainValue(raw: string): string {
  if (raw.indexOf('\\') < 0 && raw.indexOf('!') < 0) return raw.trim();
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) out += unescape(raw[++i]!);
    else if (c === '!') break;
    else out += c;
  }
  return out.trim();
}

/** An identifier value (id, is_a, xref): the first unescaped-whitespace-delimited token, decoded. */
function firstToken(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) out += unescape(raw[++i]!);
    else if (c === ' ' || c === '\t' || c === '!' || c === '{' || c === '"') break;
    else out += c;
  }
  return out;
}

/** OBO escapes: \n newline, \t tab, \W space; any other escaped character stands for itself. */
function unescape(c: string): string {
  return c === 'n' ? '\n' : c === 't' ? '\t' : c === 'W' ? ' ' : c;
}

function dedupe(forms: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const f of forms) {
    const k = f.toLowerCase();
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(f);
  }
  return out;
}
