import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LexiconError } from '../../src/errors.js';
import { defaultDdxplusLexiconPath, type EvidenceDefinition, type Lexicon, lexiconCoverage, loadLexicon, parseLexicon } from '../../src/clinical-text/concepts/lexicon.js';
import { buildConceptIndex, type ConceptIndex } from '../../src/clinical-text/concepts/concept-index.js';
import { tokenize } from '../../src/clinical-text/concepts/normalize.js';
import { resolveFeatures } from '../../src/clinical-text/concepts/resolve-features.js';
import type { FeatureNode } from '../../src/domain/kg.js';
import { buildSnapshot, type KgSnapshot } from '../../src/query/kg-snapshot.js';

const EVIDENCES_PATH = fileURLToPath(new URL('../../datasets/ddxplus/release_evidences.json', import.meta.url));
const SITE_QUESTIONS = ['E_55', 'E_57', 'E_133', 'E_152'];

interface ReleaseEvidence extends EvidenceDefinition {
  question_en: string;
  is_antecedent: boolean;
  value_meaning: Record<string, { en: string }>;
}

function wordCount(s: string): number {
  return s.trim().split(/\s+/).length;
}

/** Every list of strings an entry holds, named for the assertion message. */
function listsOf(lexicon: Lexicon): Array<[string, string[]]> {
  const out: Array<[string, string[]]> = [];
  for (const [code, site] of Object.entries(lexicon.sites)) out.push([`sites.${code}.forms`, site.forms]);
  for (const [code, ev] of Object.entries(lexicon.evidences)) {
    out.push([`${code}.forms`, ev.forms], [`${code}.abbreviations`, ev.abbreviations], [`${code}.absentForms`, ev.absentForms], [`${code}.triggers`, ev.triggers]);
    for (const [v, value] of Object.entries(ev.values)) out.push([`${code}.values.${v}.forms`, value.forms]);
  }
  return out;
}

describe('concept lexicon: the shipped DDXPlus file', () => {
  let lexicon: Lexicon;
  let evidences: Record<string, ReleaseEvidence>;

  before(async () => {
    const loaded = await loadLexicon(defaultDdxplusLexiconPath());
    if (!loaded.ok) assert.fail(loaded.error.message);
    lexicon = loaded.value;
    evidences = JSON.parse(await readFile(EVIDENCES_PATH, 'utf8')) as Record<string, ReleaseEvidence>;
  });

  it('parses against the schema and says where it comes from', () => {
    assert.equal(lexicon.version, 1);
    assert.match(lexicon.provenance, /release_evidences\.json/);
    assert.match(lexicon.provenance, /CC-BY 4\.0/);
  });

  it('covers every evidence and every value of release_evidences.json (coverage check finds no gap)', () => {
    assert.equal(Object.keys(evidences).length, 223);
    const valueCount = Object.values(evidences).reduce((n, e) => n + e['possible-values'].length, 0);
    assert.equal(valueCount, 764);
    assert.deepEqual(lexiconCoverage(lexicon, evidences), []);
  });

  it('has an entry with a canonical phrase and at least one form for every evidence and categorical value', () => {
    for (const [code, def] of Object.entries(evidences)) {
      const entry = lexicon.evidences[code];
      assert.ok(entry, `${code} has no entry`);
      assert.ok(entry.canonical.trim().length > 0 && entry.forms.length > 0, `${code} needs canonical and forms`);
      for (const value of def['possible-values']) {
        if (typeof value === 'number') {
          assert.ok(entry.scale && value >= entry.scale.min && value <= entry.scale.max, `${code}=${value} outside scale`);
          continue;
        }
        const target = SITE_QUESTIONS.includes(code) ? lexicon.sites[value] : entry.values[value];
        assert.ok(target, `${code} value ${value} (${def.value_meaning[value]?.en}) has no entry`);
        assert.ok(target.canonical.trim().length > 0 && target.forms.length > 0, `${code} value ${value} needs canonical and forms`);
      }
    }
  });

  it('marks exactly the four site questions as site questions, each with triggers', () => {
    const siteQuestions = Object.entries(lexicon.evidences).filter(([, e]) => e.valueSet === 'sites').map(([c]) => c).sort();
    assert.deepEqual(siteQuestions, [...SITE_QUESTIONS].sort());
    for (const code of SITE_QUESTIONS) assert.ok(lexicon.evidences[code]!.triggers.length >= 5, `${code} has too few triggers`);
  });

  it('gives numeric questions a scale and categorical ones none', () => {
    for (const [code, def] of Object.entries(evidences)) {
      const numeric = def['possible-values'].some((v) => typeof v === 'number');
      assert.equal(lexicon.evidences[code]!.scale !== null, numeric, `${code} scale`);
    }
  });

  it('keeps the side of sided sites and none on the others', () => {
    const meaning = evidences.E_55!.value_meaning;
    for (const [code, site] of Object.entries(lexicon.sites)) {
      const en = meaning[code]?.en ?? '';
      const expected = en.endsWith('(R)') ? 'R' : en.endsWith('(L)') ? 'L' : null;
      assert.equal(site.side, expected, `${code} ${en}`);
      for (const form of site.forms) assert.doesNotMatch(form, /\b(left|right)\b/, `${code}: "${form}" carries a side word`);
    }
  });

  it('uses short canonical phrases, never question sentences', () => {
    const canonicals: Array<[string, string]> = [
      ...Object.entries(lexicon.evidences).map(([c, e]): [string, string] => [c, e.canonical]),
      ...Object.entries(lexicon.evidences).flatMap(([c, e]) => Object.entries(e.values).map(([v, x]): [string, string] => [`${c}.${v}`, x.canonical])),
      ...Object.entries(lexicon.sites).map(([c, s]): [string, string] => [c, s.canonical]),
    ];
    for (const [where, canonical] of canonicals) {
      assert.ok(wordCount(canonical) <= 6, `${where}: canonical "${canonical}" is longer than 6 words`);
      assert.doesNotMatch(canonical, /\?/, `${where}: canonical is a question`);
      assert.doesNotMatch(canonical, /^(do|does|did|are|is|have|has|were|was|how|what|where)\b/i, `${where}: canonical reads as a question`);
      assert.notEqual(canonical.toLowerCase(), evidences[where]?.question_en.toLowerCase(), `${where}: canonical is the question text`);
    }
  });

  it('never repeats a form within one entry list, and forms are lower case', () => {
    for (const [where, list] of listsOf(lexicon)) {
      assert.equal(new Set(list).size, list.length, `${where} has duplicates`);
      if (!where.endsWith('abbreviations')) for (const f of list) assert.equal(f, f.toLowerCase(), `${where}: "${f}"`);
    }
  });

  it('keeps abbreviations as case-sensitive short tokens', () => {
    for (const [code, ev] of Object.entries(lexicon.evidences)) {
      for (const a of ev.abbreviations) {
        assert.match(a, /^\S{1,8}$/, `${code}: "${a}"`);
        assert.notEqual(a, a.toLowerCase(), `${code}: abbreviation "${a}" has no capital`);
      }
    }
  });

  it('maps the surface forms the issue names to the right questions', () => {
    const has = (code: string, form: string) => {
      const e = lexicon.evidences[code]!;
      return e.forms.includes(form) || e.abbreviations.includes(form);
    };
    const expected: Array<[string, string]> = [
      ['E_66', 'SOB'], ['E_66', 'dyspnea'], ['E_66', "can't catch my breath"], ['E_66', 'short of breath'], ['E_66', 'winded'],
      ['E_53', 'CP'], ['E_53', 'chest pain'], ['E_64', 'DOE'], ['E_67', 'PND'], ['E_217', 'orthopnea'], ['E_148', 'N/V'],
      ['E_45', 'hemoptysis'], ['E_45', 'coughing up blood'], ['E_50', 'diaphoresis'], ['E_50', 'sweating'],
      ['E_140', 'melena'], ['E_140', 'tarry stools'], ['E_140', 'black stools'], ['E_79', 'smoker'], ['E_79', 'smokes cigarettes'],
      ['E_79', 'pack-years'], ['E_191', 'former smoker'], ['E_91', 'fever'], ['E_91', 'febrile'], ['E_91', 'pyrexia'],
      ['E_91', 'running a temperature'], ['E_129', 'hives'], ['E_129', 'urticaria'], ['E_214', 'wheeze'], ['E_155', 'palpitations'],
      ['E_155', 'heart racing'], ['E_155', 'pounding heart'],
    ];
    for (const [code, form] of expected) assert.ok(has(code, form), `${code} lacks "${form}"`);
    assert.ok(!lexicon.evidences.E_191!.forms.includes('smoker'), 'plain "smoker" must not select former smoker');
    assert.ok(lexicon.evidences.E_91!.absentForms.includes('afebrile'));
    assert.ok(lexicon.sites.V_129!.forms.includes('ear') && lexicon.sites.V_130!.forms.includes('ear'));
    assert.ok(lexicon.evidences.E_55!.values.V_129!.forms.includes('otalgia'));
    assert.ok(lexicon.evidences.E_54!.values.V_71!.forms.includes('tearing'));
    assert.ok(lexicon.evidences.E_54!.values.V_183!.forms.includes('crushing'));
    for (const country of ['guinea', 'liberia', 'sierra leone']) assert.ok(lexicon.evidences.E_204!.values.V_1!.forms.includes(country), country);
    assert.ok(lexicon.evidences.E_204!.values.V_3!.forms.includes('mexico'));
  });

  it('keeps "pain" a form of the pain question only', () => {
    const owners = Object.entries(lexicon.evidences).filter(([, e]) => e.forms.includes('pain')).map(([c]) => c);
    assert.deepEqual(owners, ['E_53']);
  });

  it('sets the context from the question: family members, history, exposures', () => {
    for (const [code, def] of Object.entries(evidences)) {
      const ctx = lexicon.evidences[code]!.context;
      if (/family|mother/i.test(def.question_en) && !/you or any member|or is a member/i.test(def.question_en)) assert.equal(ctx, 'family', `${code}: ${def.question_en}`);
      if (!def.is_antecedent) assert.ok(ctx === 'patient' || code === 'E_42', `${code} is a current symptom but has context ${ctx}`);
    }
    assert.equal(lexicon.evidences.E_204!.context, 'exposure');
    assert.equal(lexicon.evidences.E_3!.context, 'history');
  });
});

describe('concept lexicon: loader errors', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dx-lexicon-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const minimal = () => ({
    version: 1,
    provenance: 'test',
    sites: { V_129: { canonical: 'ear', forms: ['ear'], side: 'R' } },
    evidences: {
      E_91: { canonical: 'fever', forms: ['fever'], abbreviations: [], absentForms: ['afebrile'], context: 'patient', triggers: [], valueSet: null, values: {}, scale: null },
    },
  });

  it('accepts a minimal valid file', () => {
    const parsed = parseLexicon(minimal(), 'mem.json');
    assert.ok(parsed.ok);
  });

  it('names the field when a form is missing', () => {
    const raw = minimal();
    (raw.evidences.E_91 as { forms: string[] }).forms = [];
    const parsed = parseLexicon(raw, 'mem.json');
    assert.ok(!parsed.ok);
    assert.ok(parsed.error instanceof LexiconError);
    assert.equal(parsed.error.field, 'evidences.E_91.forms');
    assert.match(parsed.error.message, /evidences\.E_91\.forms/);
  });

  it('takes numbers as the values of a scale question only, within its range', () => {
    const withValues = (values: Record<string, unknown>, scale: { min: number; max: number } | null) => {
      const raw = minimal();
      Object.assign(raw.evidences.E_91, { values, scale });
      return parseLexicon(raw, 'mem.json');
    };
    assert.ok(withValues({ 9: { canonical: 'sudden', forms: ['sudden'] } }, { min: 0, max: 10 }).ok);
    const outside = withValues({ 11: { canonical: 'sudden', forms: ['sudden'] } }, { min: 0, max: 10 });
    assert.ok(!outside.ok && /within 0-10/.test(outside.error.message));
    const noScale = withValues({ 9: { canonical: 'sudden', forms: ['sudden'] } }, null);
    assert.ok(!noScale.ok && /need a scale/.test(noScale.error.message));
  });

  it('names the duplicated form and its position', () => {
    const raw = minimal();
    raw.evidences.E_91.forms = ['fever', 'febrile', 'fever'];
    const parsed = parseLexicon(raw, 'mem.json');
    assert.ok(!parsed.ok);
    assert.equal(parsed.error.field, 'evidences.E_91.forms.2');
    assert.match(parsed.error.message, /duplicate "fever"/);
  });

  it('rejects upper-case forms, bad abbreviations, unknown context, unknown keys and bad side', () => {
    const cases: Array<[(r: ReturnType<typeof minimal>) => void, string]> = [
      [(r) => { r.evidences.E_91.forms = ['Fever']; }, 'evidences.E_91.forms.0'],
      [(r) => { (r.evidences.E_91 as { abbreviations: string[] }).abbreviations = ['short of breath']; }, 'evidences.E_91.abbreviations.0'],
      [(r) => { (r.evidences.E_91 as { abbreviations: string[] }).abbreviations = ['sob']; }, 'evidences.E_91.abbreviations.0'],
      [(r) => { (r.evidences.E_91 as { context: string }).context = 'friend'; }, 'evidences.E_91.context'],
      [(r) => { (r.evidences.E_91 as Record<string, unknown>).synonyms = []; }, 'evidences.E_91'],
      [(r) => { (r.sites.V_129 as { side: string }).side = 'right'; }, 'sites.V_129.side'],
      [(r) => { r.evidences.E_91.canonical = '  '; }, 'evidences.E_91.canonical'],
      [(r) => { (r.evidences.E_91 as { valueSet: string | null }).valueSet = 'sites'; }, 'evidences.E_91.triggers'],
    ];
    for (const [mutate, field] of cases) {
      const raw = minimal();
      mutate(raw);
      const parsed = parseLexicon(raw, 'mem.json');
      assert.ok(!parsed.ok, `expected failure for ${field}`);
      assert.equal(parsed.error.field, field);
    }
  });

  it('reports unreadable and non-JSON files with the path', async () => {
    const missing = await loadLexicon(join(dir, 'nope.json'));
    assert.ok(!missing.ok);
    assert.equal(missing.error.field, null);
    assert.match(missing.error.message, /cannot read lexicon .*nope\.json/);
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{"version": 1,');
    const parsed = await loadLexicon(bad);
    assert.ok(!parsed.ok);
    assert.match(parsed.error.message, /not valid JSON/);
    assert.equal(parsed.error.path, bad);
  });

  it('reports coverage gaps: missing evidence, missing value, missing site, number outside the scale', () => {
    const parsed = parseLexicon(minimal(), 'mem.json');
    assert.ok(parsed.ok);
    const lex = parsed.value;
    lex.evidences.E_54 = { ...lex.evidences.E_91!, values: { V_71: { canonical: 'tearing', forms: ['tearing'] } } };
    lex.evidences.E_55 = { ...lex.evidences.E_91!, valueSet: 'sites', triggers: ['pain'] };
    lex.evidences.E_56 = { ...lex.evidences.E_91!, scale: { min: 0, max: 5 } };
    const gaps = lexiconCoverage(lex, {
      E_1: { data_type: 'B', 'possible-values': [] },
      E_54: { data_type: 'M', 'possible-values': ['V_71', 'V_112'] },
      E_55: { data_type: 'M', 'possible-values': ['V_129', 'V_130'] },
      E_56: { data_type: 'C', 'possible-values': [0, 5, 6] },
      E_91: { data_type: 'B', 'possible-values': [] },
    });
    assert.deepEqual(gaps.map((g) => `${g.evidence}:${String(g.value)}`), ['E_1:null', 'E_54:V_112', 'E_55:V_130', 'E_56:6']);
  });
});

/**
 * The shipped lexicon through the real concept matcher, over a KG with one feature per DDXPlus
 * evidence (yes/no) or evidence value: the data must not only parse but be findable, i.e. no form is
 * hidden by a longer form of another concept or reduced by stopwords/stemming to something else.
 */
describe('concept lexicon: the shipped DDXPlus file through the concept matcher', () => {
  let lexicon: Lexicon;
  let evidences: Record<string, ReleaseEvidence>;
  let snapshot: KgSnapshot;
  let index: ConceptIndex;

  before(async () => {
    const loaded = await loadLexicon(defaultDdxplusLexiconPath());
    if (!loaded.ok) assert.fail(loaded.error.message);
    lexicon = loaded.value;
    evidences = JSON.parse(await readFile(EVIDENCES_PATH, 'utf8')) as Record<string, ReleaseEvidence>;
    const features: FeatureNode[] = [];
    for (const [code, def] of Object.entries(evidences)) {
      const values = def.data_type === 'B' ? [null] : def['possible-values'].map(String);
      for (const v of values) features.push({ id: `feat:${code}=${v ?? ''}`, text: v === null ? code : `${code}=${v}`, kind: 'ehr', code, valueCode: v, question: null, valueText: null, antecedent: null });
    }
    snapshot = buildSnapshot({
      categories: [{ id: 'cat:c', name: 'C' }],
      subcategories: [{ id: 'sub:s', name: 'S', categoryId: 'cat:c' }],
      diseases: [{ id: 'dis:d', name: 'D', subcategoryId: 'sub:s', icd10: null, recordCount: 1, aliases: ['D'] }],
      features,
      manifestations: features.map((f) => ({ diseaseId: 'dis:d', featureId: f.id, prevalence: 1, count: 1, source: 'ehr' as const })),
    });
    index = buildConceptIndex(snapshot, lexicon);
  });

  /** Feature texts ("E_91", "E_55=V_129") the text resolves to as a present finding. */
  const resolve = (text: string): string[] => [
    ...new Set(resolveFeatures(index, { finding: { text, polarity: 'present', code: null, valueCode: null }, tokens: tokenize(text), clauseTokens: [] }).map((m) => snapshot.features[m.feature]!.text)),
  ];
  /** The same with the polarity read ("-E_39"). */
  const resolveWithPolarity = (text: string): string[] => [
    ...new Set(resolveFeatures(index, { finding: { text, polarity: 'present', code: null, valueCode: null }, tokens: tokenize(text), clauseTokens: [] }).map((m) => `${m.polarity === 'present' ? '+' : '-'}${snapshot.features[m.feature]!.text}`)),
  ];

  it('finds every yes/no evidence from each of its own forms and abbreviations', () => {
    const lost: string[] = [];
    for (const [code, ev] of Object.entries(lexicon.evidences)) {
      if (evidences[code]!.data_type !== 'B') continue;
      for (const form of [...ev.forms, ...ev.abbreviations]) if (!resolve(form).includes(code)) lost.push(`${code} "${form}" -> ${resolve(form).join(' ') || 'nothing'}`);
    }
    assert.deepEqual(lost, []);
  });

  it('one phrase naming several yes/no concepts gives them as alternatives of one observation', () => {
    const groups = (text: string) => {
      const by = new Map<string, string[]>();
      for (const m of resolveFeatures(index, { finding: { text, polarity: 'present', code: null, valueCode: null }, tokens: tokenize(text), clauseTokens: [] })) by.set(m.alternatives, [...(by.get(m.alternatives) ?? []), snapshot.features[m.feature]!.text].sort());
      return [...by.values()];
    };
    // DOE: breathless on minimal effort (E_64) or short of breath (E_66); vomiting: E_211 or nausea/vomiting E_148.
    assert.deepEqual(groups('DOE'), [['E_64', 'E_66']]);
    assert.deepEqual(groups('vomiting'), [['E_148', 'E_211']]);
    // "sharp pain": the pain (its own observation) and sharp or knife-stroke character.
    assert.deepEqual(groups('sharp pain').sort(), [['E_53'], ['E_54=V_179', 'E_54=V_192']]);
    // Joint pain: a pain located at the joints, one observation over the joints the side allows.
    const joints = groups('arthralgias').find((g) => g.some((t) => t.startsWith('E_55=')))!;
    assert.ok(joints.includes('E_55=V_67') && joints.includes('E_55=V_92') && joints.length >= 20, joints.join(' '));
    const left = groups('pain in my left joints').find((g) => g.some((t) => t.startsWith('E_55=')))!;
    assert.ok(left.includes('E_55=V_68') && !left.includes('E_55=V_67'), left.join(' '));
    // One complaint, two encodings: the sore-throat question or pain at the pharynx (how DDXPlus
    // codes viral pharyngitis) are one observation, and the encoding the text did not name is added.
    assert.ok(groups('sore throat').some((g) => g.includes('E_97') && g.includes('E_55=V_148')), JSON.stringify(groups('sore throat')));
    assert.ok(groups('painful swallowing').some((g) => g.includes('E_65') && g.includes('E_55=V_148')));
    // The site question's parent is implied anyway, never paired: an earache is pain and ear pain, two observations.
    assert.ok(!groups('earache').some((g) => g.includes('E_53') && g.some((t) => t.startsWith('E_55='))));
    // A site inside a concept's own words does not borrow a head word from the clause; "sore" is no rash word.
    const clause = (text: string, cl: string) => resolveFeatures(index, { finding: { text, polarity: 'present', code: null, valueCode: null }, tokens: tokenize(text), clauseTokens: tokenize(cl) }).map((m) => snapshot.features[m.feature]!.text);
    assert.deepEqual(clause('stuffy nose', 'sore throat and stuffy nose'), ['E_181']);
    assert.ok(!clause('sore nose', '').some((t) => t.startsWith('E_133')));
    // "pressure" heads pain characters, but not inside "blood pressure": "my BP machine ... my pulse is all over the place" is no pulsing pain.
    assert.ok(!clause('pulse', 'my blood pressure machine flashes, my pulse is all over the place').some((t) => t.startsWith('E_54')));
    assert.ok(clause('pulsing', 'a pressure pulsing').some((t) => t.startsWith('E_54')));
    // Two phrases stay two observations.
    assert.equal(groups('fever, cough').length, 2);
    // A lump selects the swelling site or the affected skin region; the groin is also the
    // iliac fossa of the nine-region scheme (where DDXPlus puts inguinal hernias). One observation.
    assert.deepEqual(groups('lump in the left groin').find((g) => g.some((t) => t.startsWith('E_133'))), ['E_133=V_17', 'E_133=V_88', 'E_152=V_17', 'E_152=V_88']);
    assert.deepEqual(groups('swelling of the left groin').find((g) => g.some((t) => t.includes('=V_'))), ['E_152=V_17', 'E_152=V_88']);
  });

  it('finds every body site under each of the four site questions, with its side', () => {
    const heads: Array<[string, string]> = [['E_55', 'pain in the'], ['E_57', 'pain radiating to the'], ['E_133', 'rash on the'], ['E_152', 'swelling of the']];
    const lost: string[] = [];
    for (const [site, entry] of Object.entries(lexicon.sites)) {
      if (site === 'V_123') continue; // "nowhere" answers the question, it is not a place
      const side = entry.side === 'R' ? 'right ' : entry.side === 'L' ? 'left ' : '';
      for (const form of entry.forms) {
        for (const [code, head] of heads) {
          const text = `${head} ${side}${form}`;
          if (!resolve(text).includes(`${code}=${site}`)) lost.push(`${code}=${site} "${text}"`);
        }
      }
    }
    assert.deepEqual(lost, []);
  });

  it('finds every answer value next to its head word (pain character, rash colour, size, peeling, travel region)', () => {
    const checks: Array<[string, (form: string) => string, string[]]> = [
      ['E_54', (f) => `${f} pain`, []],
      ['E_130', (f) => `${f} rash`, []],
      ['E_131', (f) => `rash ${f}`, []],
      ['E_135', (f) => `rash ${f}`, []],
      ['E_204', (f) => `traveled to ${f}`, ['V_10']],
      ['E_55', (f) => f, []],
    ];
    const lost: string[] = [];
    for (const [code, phrase, skip] of checks) {
      for (const [value, entry] of Object.entries(lexicon.evidences[code]!.values)) {
        if (skip.includes(value)) continue;
        for (const form of entry.forms) if (!resolve(phrase(form)).includes(`${code}=${value}`)) lost.push(`${code}=${value} "${phrase(form)}"`);
      }
    }
    assert.deepEqual(lost, []);
  });

  it('reads the issue\'s clinician and lay examples as the right questions', () => {
    const cases: Array<[string, string[]]> = [
      ['61M smoker', ['E_79']],
      ['crushing CP radiating to L arm', ['E_53', 'E_54=V_183', 'E_57=V_31']],
      ['diaphoretic, SOB', ['E_50', 'E_66']],
      ["I can't catch my breath", ['E_66']],
      ['ear pain', ['E_55=V_129', 'E_55=V_130']],
      ['otalgia', ['E_55=V_129']],
      ['Sharp chest pain, worse when breathing in, better leaning forward', ['E_54=V_192', 'E_55=V_29', 'E_220', 'E_33']],
      ['tearing chest pain radiating to the back', ['E_54=V_71', 'E_57=V_39']],
      ['just back from Sierra Leone', ['E_204=V_1']],
      ['traveled to Mexico', ['E_204=V_3']],
      ['itchy red rash on both arms', ['E_129', 'E_130=V_157', 'E_133=V_30']],
      ['swollen left ankle', ['E_151', 'E_152=V_35']],
      ['I wake up at night gasping for air', ['E_67']],
      ['my poop is black', ['E_140']],
      // DDXPlus codes a hernia's bulge as a skin lesion in the groin, worse on straining.
      ['reducible L groin swelling', ['E_129']],
      ['enlarges with straining, cough impulse', ['E_221']],
      // Each disease's own appetite question: bronchiolitis E_32, pneumonia E_161, Chagas E_174.
      ['off her food', ['E_32', 'E_161', 'E_174']],
      ['purulent nasal d/c and congestion', ['E_182', 'E_181']],
      ['sometimes blood in what I cough up', ['E_45']],
      ['it hurts every time I breathe in', ['E_220']],
      ['he makes a loud gasping noise when he finally does and sometimes throws up after', ['E_112', 'E_166']],
      ['has gone yellow over the last few weeks, his eyes too', ['E_129']],
      ['his poo is pale and greasy', ['E_188']],
      ['he has to sit bolt upright in the chair', ['E_217']],
      ['wont feed good', ['E_32']],
      ['nose full of mucus', ['E_181']],
      ['sleeping with someone new without protection', ['E_115']],
      ["she won't lie flat", ['E_217']],
      ['off her milk', ['E_32']],
      ["I'm soaking the sheets at night", ['E_50']],
      ['now bringing up a bit of blood', ['E_45']],
      ['When I rush for the bus or carry the shopping up the hill', ['E_218']],
      ['he make a whistle noise breathing in', ['E_194']],
      ['feel like im going crazy', ['E_16']],
      ['way worse since the wildfire smoke this week', ['E_222']],
      ['coughing fits so bad i puke', ['E_166']],
      ['went red as a lobster all over my top half', ['E_92']],
      ['dull upper tummy pain', ['E_55=V_197']],
      ['a squeezing feeling in my chest that spreads to my left arm', ['E_55=V_29', 'E_57=V_31']],
      ['bringing up yellowish stuff', ['E_77']],
      ['flu shot this season', ['E_209']],
      ['dull pain in my upper stomach that bores into my back', ['E_55=V_197', 'E_57=V_170']],
      ['epigastric pain boring through to the back', ['E_55=V_197', 'E_57=V_39']],
    ];
    for (const [text, want] of cases) {
      const got = resolve(text);
      for (const w of want) assert.ok(got.includes(w), `"${text}" should give ${w}, got ${got.join(' ')}`);
    }
  });

  it('reads a relative\'s condition as family history, by its core, and never as the patient\'s', () => {
    const about = (text: string, cue: string | null): string[] => [
      ...new Set(resolveFeatures(index, { finding: { text, polarity: 'present', code: null, valueCode: null, experiencer: cue ? 'family' : 'patient', cue }, tokens: tokenize(text), clauseTokens: [] }).map((m) => snapshot.features[m.feature]!.text)),
    ].sort();
    // "my brother had a collapsed lung": the analysis leaves "collapsed lung" with the cue "brother had".
    assert.deepEqual(about('collapsed lung', 'brother had'), ['E_165']);
    assert.deepEqual(about('collapsed lung', null), ['E_21']);
    assert.deepEqual(about('lung cancer', 'dad had'), ['E_224']);
    assert.deepEqual(about('MI at 50', 'father had'), ['E_225']);
    // "Mother died suddenly aged 50": a relative's early cardiac death; "the same irregular heart in her 60s" is no early one.
    assert.deepEqual(about('same irregular heart in her 60s', 'Mum had'), []);
    assert.deepEqual(about('Mother died suddenly', null), ['E_225']);
    assert.deepEqual(about('heart problems', 'dad has'), ['E_225']);
    // A question about one relative (E_142: the mother's asthma) needs that relative named.
    assert.deepEqual(about('asthma', 'mom has'), ['E_142', 'E_87']);
    assert.deepEqual(about('asthma', 'sister has'), ['E_87']);
    assert.ok(!about('asthma', null).includes('E_87'));
  });

  it('reads a habit that stopped as the past habit, never as the present one, and a past illness as history', () => {
    const past = (text: string, cue: string): string[] =>
      [...new Set(resolveFeatures(index, { finding: { text, polarity: 'present', code: null, valueCode: null, temporality: 'historical', cue }, tokens: tokenize(text), clauseTokens: [] }).map((m) => `${m.polarity === 'present' ? '+' : '-'}${snapshot.features[m.feature]!.text}`))].sort();
    // "ex-smoker", "quit smoking": DDXPlus asks "Are you a former smoker?" (E_191); "Do you smoke?" (E_79) stays unsaid.
    assert.deepEqual(past('smoker', 'ex-smoker'), ['+E_191']);
    assert.deepEqual(past('smoking', 'quit'), ['+E_191']);
    assert.deepEqual(past('IV drug use', 'former'), []);
    assert.deepEqual(past('smoking', 'h/o'), ['+E_79']);
    assert.ok(past('pneumonia', 'used to').includes('+E_118'));
  });

  it('a side word inside a site\'s phrase leaves it one phrase ("lower left abdomen" is the left iliac fossa, not the belly)', () => {
    assert.ok(resolve('pain in the lower left abdomen').includes('E_55=V_88'), resolve('pain in the lower left abdomen').join(' '));
    assert.ok(resolve('pain in the lower right belly').includes('E_55=V_87'));
    assert.ok(resolve('pain in the lower left side of my belly').includes('E_55=V_88'));
    // Another word between still breaks it: "upper stomach that bores into my back" names no upper back.
    assert.ok(!resolve('lower pain in my abdomen').includes('E_55=V_88'));
  });

  it('an exam\'s "alert" denies confusion and "spotting" is bleeding, not a spotty rash', () => {
    assert.deepEqual(resolveWithPolarity('Alert'), ['-E_39']);
    assert.deepEqual(resolveWithPolarity('less alert'), ['+E_39']);
    assert.deepEqual(resolve('spotting on and off'), ['E_178']);
  });

  it('reads jaundice as a yellow skin problem, as the source codes it', () => {
    assert.deepEqual(resolve('new jaundice').sort(), ['E_129', 'E_130=V_107']);
    assert.ok(resolve('skin and eyes have turned yellow').includes('E_130=V_107'));
  });

  it('hears a misspelling of a word that stemming shortens ("tierd", "tird" for tired)', () => {
    assert.ok(resolve('so tierd all the time').includes('E_89'), resolve('so tierd all the time').join(' '));
    assert.ok(resolve('always tird').includes('E_89'));
    // A plural's "s" counts towards a word's typo budget: "pouds" is a 5-letter word one edit from "pounds".
    assert.ok(resolve('lost 15 pouds').includes('E_162'), resolve('lost 15 pouds').join(' '));
    // Everyday words are not heard as concepts: "since" is not "sinus", "grew" neither "crowing" nor "graves".
    assert.deepEqual(resolve('since sunday'), []);
    assert.deepEqual(resolve('grew up'), []);
  });

  it('reads lexical negatives as absent findings, without the present concept beside them', () => {
    const signed = (text: string): string[] =>
      [...new Set(resolveFeatures(index, { finding: { text, polarity: 'present', code: null, valueCode: null }, tokens: tokenize(text), clauseTokens: [] }).map((m) => `${m.polarity === 'present' ? '+' : '-'}${snapshot.features[m.feature]!.text}`))].sort();
    assert.deepEqual(signed('afebrile'), ['-E_91']);
    assert.deepEqual(signed('HIV-negative'), ['-E_2']);
    assert.deepEqual(signed('non-productive cough'), ['+E_201', '-E_77']);
    assert.deepEqual(signed('nonsmoker'), ['-E_79']);
    assert.deepEqual(signed('unvaccinated'), ['-E_209']);
    // "I can breathe fine" says there is no shortness of breath (an embedding once read it as "cannot breathe").
    assert.deepEqual(signed('I can breathe fine'), ['-E_66']);
    assert.deepEqual(signed('get out of breath easily'), ['+E_66']);
    // A lexical negative is one written phrase ("breath sounds ok" is an exam finding), and it denies its concept wherever their words meet.
    assert.deepEqual(signed('breath sounds ok bilaterally'), []);
    assert.deepEqual(signed('cough, non productive'), ['+E_201', '-E_77']);
    assert.deepEqual(signed('he missed some of his jabs'), ['-E_209']);
    // "rest pain" is the rest-pain question alone, so "No rest pain" negates it and not pain itself.
    assert.deepEqual(signed('rest pain'), ['+E_14']);
  });

  it('does not read unrelated everyday wording as findings', () => {
    const cases: Array<[string, string[]]> = [
      ['former smoker', ['E_79']],
      ['pain relieved by rest', ['E_14']],
      ['goes away when I stop and rest', ['E_14']],
      ['comes on when walking, better with rest', ['E_14']],
      ['SOB with minimal exertion', ['E_13']],
      ['drinks alcohol socially', ['E_78']],
      ['strained my back', ['E_221']],
      ['blood pressure 120/80', ['E_54=V_183']],
      ['10 days', ['E_56=10']],
      ['5 min', ['E_200']],
      ['sick for 3 days', ['E_148']],
      ['lips swelling after eating peanuts', ['E_215']],
      ['chest pain radiating to the back', ['E_55=V_170', 'E_55=V_171']],
      // The "stomach" of "stomach cramps" is the belly the cramps name, not also the epigastrium.
      ['stomach cramps', ['E_55=V_197']],
      ['dull upper tummy pain', ['E_55=V_187']],
      // Sounds like "cast" only if a misspelling could add two letters.
      ['non-caseating granulomas', ['E_110']],
      // Pus from the nose is no sputum.
      ['purulent nasal d/c and congestion', ['E_77']],
      // A flu shot is a vaccination, not a recent flu.
      ['flu shot this season', ['E_0']],
      // Breathing is no pain on breathing.
      ["he's bubbling when he breathes", ['E_220']],
      ['his poo is pale', ['E_154']],
      ['went out in the sun without protection', ['E_115']],
      // Smoke in the air is no smoking.
      ['way worse since the wildfire smoke this week', ['E_79']],
      // A site is one phrase: no "upper back" from "upper stomach ... back".
      ['dull pain in my upper stomach that bores into my back', ['E_55=V_170', 'E_55=V_127']],
    ];
    for (const [text, never] of cases) {
      const got = resolve(text);
      for (const n of never) assert.ok(!got.includes(n), `"${text}" must not give ${n}, got ${got.join(' ')}`);
    }
  });
});
