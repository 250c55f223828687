import assert from 'node:assert/strict';
import { LAB_REFERENCES, LAB_SOURCES, directionOf, intervalFor } from '../../../../src/clinical-text/labs/reference-ranges.js';
import { labDirection, labPhenotype } from '../../../../src/clinical-text/labs/interpret.js';
import { codedLabPhenotype } from '../../../../src/clinical-text/labs/coded-lab.js';
import { measurementFindings } from '../../../../src/clinical-text/analysis/measurements.js';
import { loadHpo } from '../../../../src/vocabularies/load-hpo.js';
import { buildSnapshot } from '../../../../src/query/kg-snapshot.js';
import { decompose } from '../../../../src/clinical-text/decompose.js';
import { matchConcepts } from '../../../../src/clinical-text/concepts/match-concepts.js';

describe('labs/reference-ranges.json', () => {
  it('every phenotype is its HPO term\'s label or synonym in the installed release', async () => {
    const hpo = await loadHpo();
    assert.ok(hpo.ok, 'the HPO release installed by npm run setup');
    const forms = new Map(hpo.value.concepts.map((c) => [c.code, new Set(c.forms.map((f) => f.toLowerCase()))]));
    const named = LAB_REFERENCES.flatMap((l) => [l.low, l.high]).filter((p) => p !== undefined);
    assert.ok(named.length >= 40);
    // Written as an emergent concept of the notes on purpose (its source in the table says why).
    const EMERGENT = new Set(['suppressed TSH']);
    for (const p of named) if (!EMERGENT.has(p.finding)) assert.ok(forms.get(p.hpo)?.has(p.finding.toLowerCase()), `${p.finding}: not a form of ${p.hpo}`);
  });

  it('every entry cites a source the file names; the sex intervals lie within the one for anyone', () => {
    for (const l of LAB_REFERENCES) {
      assert.ok(Object.keys(LAB_SOURCES).some((k) => l.source.includes(k)), `${l.analyte}: "${l.source}" cites no source`);
      for (const sex of ['F', 'M'] as const) {
        const [lo, hi] = intervalFor(l, sex);
        assert.ok(lo >= l.range[0] && hi <= l.range[1], `${l.analyte} ${sex}`);
      }
    }
  });

  it('low / normal / high against the interval', () => {
    const na = LAB_REFERENCES.find((l) => l.analyte === 'sodium')!;
    assert.deepEqual([128, 140, 152].map((v) => directionOf(na, v, null)), ['low', 'normal', 'high']);
    // Just beyond a population interval (by less than a tenth of its width): normal at some laboratories.
    assert.deepEqual([134.5, 145.5].map((v) => directionOf(na, v, null)), ['normal', 'normal']);
    const glucose = LAB_REFERENCES.find((l) => l.analyte === 'glucose')!;
    assert.equal(directionOf(glucose, 14, null), 'high', 'a decision limit applies as written');
  });
});

describe('labs: a note, a FHIR Observation and an OMOP row reach one phenotype', () => {
  const base = { range: null, interpretation: null, sex: null } as const;

  it('the laboratory\'s flag first, then its range, then the adult table', () => {
    const e = { loinc: '2951-2', value: 132, rawValue: 132, range: null, flag: null, sex: null } as const;
    assert.equal(labDirection(e), 'low');
    assert.equal(labDirection({ ...e, range: { low: 130, high: 145 } }), 'normal');
    assert.equal(labDirection({ ...e, range: { low: 130, high: 145 }, flag: 'LL' }), 'low');
    assert.equal(labDirection({ ...e, flag: 'A' }), 'low', 'no direction in "A": the next rule decides');
    assert.equal(labPhenotype({ ...e, value: 140, rawValue: 140 }), null, 'normal: no phenotype');
  });

  it('hemoglobin 7.9 g/dL: note, FHIR interpretation L, OMOP range and bare value give the feature HP:0001903', () => {
    const note = measurementFindings('Hgb 7.9 g/dL', 50).map((f) => f.text);
    const fhir = codedLabPhenotype({ ...base, loinc: '718-7', value: 7.9, unit: 'g/dL', interpretation: 'L' });
    const omop = codedLabPhenotype({ ...base, loinc: '718-7', value: 79, unit: 'g/L', range: { low: 120, high: 160 } });
    const bare = codedLabPhenotype({ ...base, loinc: '718-7', value: 7.9, unit: 'g/dL' });
    assert.deepEqual(note, ['Anemia']);
    for (const f of [fhir, omop, bare]) {
      assert.equal(f?.code, 'HP:0001903');
      assert.equal(f?.text, note[0]);
      assert.equal(f?.concept?.vocabulary, 'HPO');
    }
  });

  it('a coded lab under another LOINC code of the analyte, in another unit, reads the same', () => {
    const f = codedLabPhenotype({ ...base, loinc: '2339-0', value: 412, unit: 'mg/dL' });
    assert.equal(f?.code, 'HP:0003074');
    assert.equal(codedLabPhenotype({ ...base, loinc: '2951-2', value: 140, unit: 'mmol/L' }), null, 'normal sodium');
    assert.equal(codedLabPhenotype({ ...base, loinc: '1234-5', value: 1, unit: null }), null, 'no analyte of the table');
    assert.equal(codedLabPhenotype({ ...base, loinc: '2951-2', value: 128, unit: 'furlongs' }), null, 'a unit no rule converts and no flag: nothing said');
    assert.equal(codedLabPhenotype({ ...base, loinc: '2951-2', value: 128, unit: 'furlongs', interpretation: 'L' })?.code, 'HP:0002902', 'but the flag still says');
  });
});

describe('labs: the note\'s phenotype is the HPO feature a coded lab gives', () => {
  it('"Hgb 7.9 g/dL, MCV 68" in a note is read as the HPO features HP:0001903 and HP:0025066', () => {
    const hpoNode = (code: string, text: string, forms: string[]) => ({ id: `feat:${code}`, text, kind: 'ehr' as const, code, valueCode: null, question: null, valueText: null, antecedent: null, vocabulary: 'HPO', forms });
    const snapshot = buildSnapshot({
      categories: [], subcategories: [], diseases: [], manifestations: [],
      features: [hpoNode('HP:0001903', 'Anemia', ['Anemia', 'Anaemia']), hpoNode('HP:0025066', 'Decreased mean corpuscular volume', ['Decreased mean corpuscular volume', 'Decreased MCV', 'Microcytosis'])],
    });
    const text = 'Labs: Hgb 7.9 g/dL, MCV 68.';
    const { findings } = decompose({ text, findings: [] });
    const read = matchConcepts({ snapshot, lexicon: null, phraseEmbedder: null }, { findings, text });
    const codes = [...read.values()].flat().map((m) => m.featureId.replace('feat:', '')).sort();
    assert.deepEqual(codes, ['HP:0001903', 'HP:0025066']);
    const coded = [codedLabPhenotype({ loinc: '718-7', value: 7.9, unit: 'g/dL', range: null, interpretation: null, sex: null }), codedLabPhenotype({ loinc: '787-2', value: 68, unit: 'fL', range: null, interpretation: null, sex: null })];
    assert.deepEqual(coded.map((f) => f?.code), ['HP:0001903', 'HP:0025066']);
  });
});
