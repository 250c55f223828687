import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { VocabularyConcept } from '../../src/clinical-text/vocabulary.js';
import { ArtifactError } from '../../src/errors.js';
import { HPO_ATTRIBUTION, parseHpoObo } from '../../src/vocabularies/hpo-obo.js';
import { hpoPath, loadHpo } from '../../src/vocabularies/load-hpo.js';

/**
 * The hp.obo reader on a small inline ontology that has one of each thing the real file has:
 * the root and a branch outside "Phenotypic abnormality", an obsolete term, every synonym scope
 * with and without the layperson type, an obsolete synonym, OBO escapes, xrefs with and without
 * a quoted description, trailing comments and modifiers, a [Typedef] stanza.
 */
const OBO = String.raw`format-version: 1.2
data-version: hp/releases/2099-01-31
synonymtypedef: layperson "layperson term"
remark: Please see license of HPO at http://www.human-phenotype-ontology.org
property_value: owl:versionInfo "2099-01-31" xsd:string

[Term]
id: HP:0000001
name: All
xref: UMLS:C0444868

[Term]
id: HP:0000005
name: Mode of inheritance
synonym: "Inheritance" EXACT []
is_a: HP:0000001 ! All

[Term]
id: HP:0000118
name: Phenotypic abnormality
synonym: "Phenotypic defect" EXACT layperson []
synonym: "Organ abnormality" RELATED []
is_a: HP:0000001 ! All

[Term]
id: HP:0004370
name: Abnormality of temperature regulation
is_a: HP:0000118 ! Phenotypic abnormality
is_a: HP:0000005 ! Mode of inheritance

[Term]
id: HP:0001945
name: Fever
def: "Body temperature elevated above the normal range\: \"see\" note." [PMID:9759682]
synonym: "Fever" EXACT layperson []
synonym: "Pyrexia" EXACT []
synonym: "PYREXIA" EXACT uk_spelling []
synonym: "High temperature" RELATED layperson [https://orcid.org/0000-0001-5208-3432]
synonym: "Feverish" NARROW layperson []
synonym: "Hot" BROAD layperson []
synonym: "Febrile" RELATED []
synonym: "Hyperthermic state" NARROW []
synonym: "Heat" BROAD []
synonym: "Old fever" EXACT obsolete_synonym []
synonym: "Temperature\, raised" EXACT [] {source="x"}
synonym: "FV" EXACT abbreviation []
synonym: "FEBR" EXACT abbreviation []
xref: SNOMEDCT_US:386661006
xref: UMLS:C0015967
xref: MEDDRA:10037660 "Pyrexia"
is_a: HP:0004370 {source="PMID:1"} ! Abnormality of temperature regulation

[Term]
id: HP:0000003
name: obsolete Fever spikes
synonym: "Spiking fever" EXACT layperson []
is_obsolete: true
replaced_by: HP:0001945

[Term]
id: HP:0000004
name: obsolete Heat intolerance
is_a: HP:0004370
is_obsolete: true

[Term]
id: HP:0012531
name: Pain\: \"stabbing\" \\ sharp
synonym: "Tummy\Wache \! bad" EXACT layperson []
synonym: "Line\none" EXACT []
xref: SNOMEDCT_US:22253000
is_a: HP:0000118

[Term]
id: HP:0000006
name: Autosomal dominant inheritance
synonym: "Monoallelic inheritance" EXACT layperson []
xref: SNOMEDCT_US:771269000
is_a: HP:0000005 ! Mode of inheritance

[Typedef]
id: has_part
name: has part
is_transitive: true
`;

const byCode = (cs: VocabularyConcept[]) => [...cs].sort((a, b) => a.code.localeCompare(b.code));

const EXPECTED: VocabularyConcept[] = [
  {
    vocabulary: 'HPO',
    code: 'HP:0000118',
    label: 'Phenotypic abnormality',
    forms: ['Phenotypic abnormality', 'Phenotypic defect'],
    xrefs: [],
    parents: [],
  },
  {
    vocabulary: 'HPO',
    code: 'HP:0001945',
    label: 'Fever',
    forms: ['Fever', 'Pyrexia', 'High temperature', 'Feverish', 'Hot', 'Temperature, raised', 'FEBR'],
    xrefs: ['SNOMEDCT_US:386661006', 'UMLS:C0015967', 'MEDDRA:10037660'],
    parents: ['HP:0004370'],
  },
  {
    vocabulary: 'HPO',
    code: 'HP:0004370',
    label: 'Abnormality of temperature regulation',
    forms: ['Abnormality of temperature regulation'],
    xrefs: [],
    parents: ['HP:0000118'],
  },
  {
    vocabulary: 'HPO',
    code: 'HP:0012531',
    label: 'Pain: "stabbing" \\ sharp',
    forms: ['Pain: "stabbing" \\ sharp', 'Tummy ache ! bad', 'Line\none'],
    xrefs: ['SNOMEDCT_US:22253000'],
    parents: ['HP:0000118'],
  },
];

describe('HPO: parseHpoObo on an inline hp.obo', () => {
  it('keeps exactly the non-obsolete terms under Phenotypic abnormality, with their forms, xrefs and parents', () => {
    const v = parseHpoObo(OBO);
    assert.equal(v.name, 'HPO');
    assert.deepEqual(byCode(v.concepts), EXPECTED);
  });

  it('leaves out HP:0000001 (All), the other branches, obsolete terms and [Typedef] stanzas', () => {
    const codes = new Set(parseHpoObo(OBO).concepts.map((c) => c.code));
    for (const code of ['HP:0000001', 'HP:0000005', 'HP:0000006', 'HP:0000003', 'HP:0000004', 'has_part']) assert.ok(!codes.has(code), code);
  });

  it('takes forms from EXACT and layperson synonyms only, never RELATED/BROAD/NARROW ones or obsolete synonyms', () => {
    const fever = parseHpoObo(OBO).concepts.find((c) => c.code === 'HP:0001945')!;
    for (const f of ['Febrile', 'Hyperthermic state', 'Heat', 'Old fever']) assert.ok(!fever.forms.includes(f), f);
    // A two-letter abbreviation is no form ("BO" of body odor is bowels open in a note); longer ones are.
    assert.ok(!fever.forms.includes('FV') && fever.forms.includes('FEBR'));
    // "Fever" (layperson) and "PYREXIA" repeat a form: one copy each, the first spelling.
    assert.equal(fever.forms.filter((f) => f.toLowerCase() === 'fever').length, 1);
    assert.equal(fever.forms.filter((f) => f.toLowerCase() === 'pyrexia').length, 1);
  });

  it('keeps only parents that are in the vocabulary, so walking is_a never leaves it', () => {
    const v = parseHpoObo(OBO);
    const codes = new Set(v.concepts.map((c) => c.code));
    for (const c of v.concepts) for (const p of c.parents) assert.ok(codes.has(p), `${c.code} -> ${p}`);
  });

  it('reads CRLF files the same', () => {
    assert.deepEqual(parseHpoObo(OBO.replace(/\n/g, '\r\n')), parseHpoObo(OBO));
  });

  it('credits HPO with the release from data-version and the citation', () => {
    const { attribution } = parseHpoObo(OBO);
    assert.equal(attribution, HPO_ATTRIBUTION.replace('{version}', '2099-01-31'));
    assert.match(attribution, /^This service\/product is using the Human Phenotype Ontology \(version 2099-01-31\)\. Find out more at http:\/\/www\.human-phenotype-ontology\.org/);
    assert.match(attribution, /Köhler S.*Nucleic Acids Res\. 2014.*doi:10\.1093\/nar\/gkt1026/);
  });

  it('has no concepts for a file without HP:0000118', () => {
    assert.deepEqual(parseHpoObo('format-version: 1.2\n\n[Term]\nid: HP:0000001\nname: All\n').concepts, []);
    assert.deepEqual(parseHpoObo('').concepts, []);
  });
});

describe('HPO: hpoPath and loadHpo', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dxgraph-hpo-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('defaults to <root>/.vocab/hpo/hp.obo; DXGRAPH_HPO_OBO overrides it', () => {
    assert.equal(hpoPath('/srv/dxgraph', {}), '/srv/dxgraph/.vocab/hpo/hp.obo');
    assert.equal(hpoPath('/srv/dxgraph', { DXGRAPH_HPO_OBO: '' }), '/srv/dxgraph/.vocab/hpo/hp.obo');
    assert.equal(hpoPath('/srv/dxgraph', { DXGRAPH_HPO_OBO: '/data/hp.obo' }), '/data/hp.obo');
    assert.equal(hpoPath('/srv/dxgraph', { DXGRAPH_HPO_OBO: 'vocab/hp.obo' }), resolve('vocab/hp.obo'));
  });

  it('loads a file', async () => {
    const path = join(dir, 'hp.obo');
    await writeFile(path, OBO);
    const r = await loadHpo(path);
    assert.ok(r.ok);
    assert.deepEqual(byCode(r.value.concepts), EXPECTED);
  });

  it('returns an error value naming the file and `npm run setup` when the file is missing', async () => {
    const path = join(dir, 'nowhere', 'hp.obo');
    const r = await loadHpo(path);
    assert.ok(!r.ok);
    assert.ok(r.error instanceof ArtifactError);
    assert.equal(r.error.path, path);
    assert.match(r.error.message, /is missing/);
    assert.ok(r.error.message.includes(path));
    assert.match(r.error.message, /npm run setup/);
  });

  it('returns an error value for a file that is not hp.obo', async () => {
    const path = join(dir, 'other.obo');
    await writeFile(path, 'format-version: 1.2\n\n[Term]\nid: GO:0008150\nname: biological_process\n');
    const r = await loadHpo(path);
    assert.ok(!r.ok);
    assert.match(r.error.message, /not the Human Phenotype Ontology/);
    assert.match(r.error.message, /npm run setup/);
  });
});
