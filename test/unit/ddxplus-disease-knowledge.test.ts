import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { conditionLinks, ddxplusKnowledge, evidenceTerms, shippedKnowledge } from '../../src/sources/ddxplus/disease-knowledge.js';
import { loadDdxplusDictionary, type DdxplusDictionary } from '../../src/sources/ddxplus/dictionary.js';
import { FREQUENCY_RATES } from '../../src/vocabularies/hpo-annotations.js';

/**
 * Issue 48: the DDXPlus source ships what Orphanet's HPO annotations say of the conditions Orphanet
 * describes (src/sources/ddxplus/knowledge/). The three files must speak DDXPlus's own vocabulary:
 * its condition keys and its yes/no evidence codes, or the build attaches nothing.
 */
const DIR = fileURLToPath(new URL('../../datasets/ddxplus', import.meta.url));
type RawCondition = { 'cond-name-fr'?: string; symptoms?: Record<string, unknown>; antecedents?: Record<string, unknown> };
type RawEvidence = { data_type: string; is_antecedent: boolean };
const json = async <T>(file: string) => JSON.parse(await readFile(`${DIR}/${file}`, 'utf8')) as Record<string, T>;

describe('DDXPlus disease knowledge: the shipped files (issue 48)', () => {
  let conditions: Record<string, RawCondition>;
  let evidences: Record<string, RawEvidence>;
  let dict: DdxplusDictionary;
  before(async () => {
    conditions = await json<RawCondition>('release_conditions.json');
    evidences = await json<RawEvidence>('release_evidences.json');
    dict = await loadDdxplusDictionary(DIR);
  });

  it('the three files parse against their schemas and are not empty', () => {
    assert.ok(Object.keys(conditionLinks()).length > 0);
    assert.ok(Object.keys(evidenceTerms()).length > 0);
    for (const terms of Object.values(evidenceTerms())) assert.ok(terms.length > 0 && terms.every((t) => /^HP:\d{7}$/.test(t)));
    const k = shippedKnowledge();
    assert.equal(k.version, 1);
    assert.match(k.provenance, /Orphanet/);
  });

  it('every condition they name is a key of release_conditions.json', () => {
    const named = [...Object.keys(conditionLinks()), ...Object.keys(shippedKnowledge().conditions)];
    for (const c of named) assert.ok(c in conditions, `${c} is not a DDXPlus condition key`);
  });

  it('every evidence code they name is a yes/no (data_type B) finding of release_evidences.json, not a history question', () => {
    const codes = new Set([...Object.keys(evidenceTerms()), ...Object.values(shippedKnowledge().conditions).flatMap((c) => Object.keys(c.rates))]);
    for (const code of codes) {
      assert.ok(code in evidences, `${code} is not a DDXPlus evidence`);
      assert.equal(evidences[code]!.data_type, 'B', code);
      assert.equal(evidences[code]!.is_antecedent, false, `${code}: antecedents have no HPO phenotype`);
    }
  });

  it('the derived file names the same conditions as condition-orphanet.json, with the same Orphanet disease', () => {
    const links = conditionLinks();
    const derived = shippedKnowledge().conditions;
    assert.deepEqual(Object.keys(derived).sort(), Object.keys(links).sort());
    for (const [c, k] of Object.entries(derived)) {
      assert.equal(k.orphanet, links[c]!.id, c);
      assert.equal(k.name, links[c]!.name, c);
    }
  });

  it('each derived rate is of an evidence that evidence-hpo.json maps, at the middle of an Orphanet band above Excluded', () => {
    const mapped = new Set(Object.keys(evidenceTerms()));
    const bands = new Set(Object.values(FREQUENCY_RATES).filter((r) => r > 0));
    for (const [c, k] of Object.entries(shippedKnowledge().conditions)) {
      assert.ok(Object.keys(k.rates).length > 0, `${c} knows nothing`);
      for (const [code, rate] of Object.entries(k.rates)) {
        assert.ok(mapped.has(code), `${c} ${code}: no HPO terms for it`);
        assert.ok(bands.has(rate), `${c} ${code}: ${rate}`);
      }
    }
  });

  it('a PATHOLOGY string resolves to its condition’s rates, with a source naming the Orphanet disease', () => {
    const know = ddxplusKnowledge(dict);
    const chagas = know('Chagas');
    assert.ok(chagas);
    assert.deepEqual(chagas.rates, shippedKnowledge().conditions['Chagas']!.rates);
    assert.match(chagas.source, /ORPHA:3386/);
    const fr = conditions['Sarcoidosis']!['cond-name-fr']!;
    assert.notEqual(fr, 'Sarcoidosis', 'the French spelling differs');
    const sarcoid = know(fr);
    assert.ok(sarcoid, `${fr} resolves`);
    assert.match(sarcoid.source, /ORPHA:797/);
    assert.deepEqual(know(fr.toUpperCase()), sarcoid, 'any case');
  });

  it('a condition without an Orphanet link, or a string DDXPlus does not know, has no knowledge', () => {
    const know = ddxplusKnowledge(dict);
    assert.ok('URTI' in conditions && !('URTI' in conditionLinks()));
    assert.equal(know('URTI'), null);
    assert.equal(know('Influenza'), null);
    assert.equal(know('Kissing-bug disease'), null);
  });

  it('resolves through the dictionary it is given, against the knowledge it is given', () => {
    const shipped = { version: 1 as const, provenance: 'test', conditions: { Chagas: { orphanet: 'ORPHA:1', name: 'X', rates: { E_201: 0.5 } } } };
    const know = ddxplusKnowledge({ resolveCondition: (n) => (n === 'chagas disease' ? { key: 'Chagas', nameEn: 'Chagas', icd10: null, evidenceCodes: [] } : null) }, shipped);
    assert.deepEqual(know('chagas disease'), { source: "ORPHA:1 X (Orphanet's HPO annotations)", rates: { E_201: 0.5 } });
    assert.equal(know('Chagas'), null, 'the given dictionary does not know this spelling');
  });

  it('sarcoidosis is known to cough (E_201), which DDXPlus never declares for it: the point of the feature', () => {
    const sarcoid = ddxplusKnowledge(dict)('Sarcoidosis');
    assert.ok(sarcoid);
    assert.ok((sarcoid.rates['E_201'] ?? 0) > 0, 'Orphanet: cough is frequent in sarcoidosis');
    const declared = { ...conditions['Sarcoidosis']!.symptoms, ...conditions['Sarcoidosis']!.antecedents };
    assert.ok(!('E_201' in declared), 'release_conditions.json does not declare E_201 for Sarcoidosis');
    assert.ok(!dict.resolveCondition('Sarcoidosis')!.evidenceCodes.includes('E_201'), 'nor does the loaded dictionary');
    assert.ok(Object.values(conditions).some((c) => c.symptoms && 'E_201' in c.symptoms), 'yet E_201 is an evidence DDXPlus asks of other conditions');
  });
});
