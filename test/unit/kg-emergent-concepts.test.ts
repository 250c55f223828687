import assert from 'node:assert/strict';
import { HashedEmbedder } from '../../src/adapters/embeddings/index.js';
import { DEFAULT_EMERGENT_OPTIONS, emergentConcepts, isEmergentKey, type EmergentOptions } from '../../kg-build/emergent-concepts.js';
import type { FeatureProto } from '../../kg-build/scan-records.js';

/**
 * Emergent concepts (issue 24): candidate phrases counted across notes, kept only when k records
 * share them, grouped by embedding, named by their most shared phrase. HashedEmbedder: "guarding"
 * and "abdominal guarding" are cosine ~0.66 apart, "night sweats" ~0 from both.
 */
const embeddings = new HashedEmbedder();

/** A candidate as the scan leaves it: key "e:<stems>", text the stems, the surface as its one form. */
function proto(stems: string, surface: string): FeatureProto {
  return { key: `e:${stems}`, text: stems, code: null, valueCode: null, question: null, valueText: null, antecedent: null, answerType: null, parentCode: null, vocabulary: 'emergent-candidate', forms: [surface], xrefs: null };
}

interface Candidate { stems: string; surface: string; records: number }

function run(cands: Candidate[], options: Partial<EmergentOptions> = {}, extraSupport: [string, number][] = []) {
  const support = new Map<string, number>([...cands.map((c) => [`e:${c.stems}`, c.records] as [string, number]), ...extraSupport]);
  const protos = new Map(cands.map((c) => [`e:${c.stems}`, proto(c.stems, c.surface)] as const));
  return emergentConcepts({ support, protos, embeddings }, options);
}

const guard: Candidate = { stems: 'guard', surface: 'guarding', records: 9 };
const abdGuard: Candidate = { stems: 'abdominal guard', surface: 'abdominal guarding', records: 6 };
const sweats: Candidate = { stems: 'night sweat', surface: 'night sweats', records: 7 };
const rare: Candidate = { stems: 'guard abdomen', surface: 'guarding abdomen', records: 4 };
const once: Candidate = { stems: 'purple toenail', surface: 'purple toenail', records: 1 };

describe('kg-build emergent-concepts', () => {
  it('defaults: k = 5 records, vocabulary concepts from notes need 2', () => {
    assert.equal(DEFAULT_EMERGENT_OPTIONS.minPatients, 5);
    assert.equal(DEFAULT_EMERGENT_OPTIONS.minVocabularyPatients, 2);
    assert.ok(isEmergentKey('e:guard'));
    assert.ok(!isEmergentKey('t:guarding') && !isEmergentKey('c:E_1='));
  });

  it('a candidate seen in fewer than minPatients records maps to null and appears in no proto, not even merged into a kept one', async () => {
    // mergeSimilarity 0: everything that is clustered would join one concept.
    const out = await run([guard, abdGuard, rare, once], { minPatients: 5, mergeSimilarity: 0 });
    assert.equal(out.candidates, 4);
    assert.equal(out.canonical.get('e:guard abdomen'), null);
    assert.equal(out.canonical.get('e:purple toenail'), null);
    assert.ok(!out.protos.has('e:guard abdomen') && !out.protos.has('e:purple toenail'));
    for (const p of out.protos.values()) {
      assert.ok(!p.forms!.includes('guarding abdomen'), `forms ${p.forms}`);
      assert.ok(!p.forms!.includes('purple toenail'), `forms ${p.forms}`);
      assert.notEqual(p.text, 'guarding abdomen');
    }
    assert.equal(out.kept, out.protos.size);
  });

  it('a one-word candidate that only qualifies a finding ("sometimes", "worse") is no concept however shared; its pairs still are', async () => {
    const out = await run([{ stems: 'sometim', surface: 'sometimes', records: 30 }, { stems: 'wors', surface: 'worse', records: 30 }, { stems: 'wors bend', surface: 'worse bending', records: 6 }], { minPatients: 5 });
    assert.equal(out.canonical.get('e:sometim'), null);
    assert.equal(out.canonical.get('e:wors'), null);
    assert.equal(out.canonical.get('e:wors bend'), 'e:wors bend');
    assert.equal(out.kept, 1);
  });

  it('exactly minPatients records is enough', async () => {
    const out = await run([{ ...rare, records: 5 }], { minPatients: 5 });
    assert.equal(out.canonical.get('e:guard abdomen'), 'e:guard abdomen');
    assert.equal(out.kept, 1);
  });

  it('with every candidate below k nothing is kept', async () => {
    const out = await run([rare, once], { minPatients: 5 });
    assert.equal(out.kept, 0);
    assert.equal(out.protos.size, 0);
    assert.deepEqual([...out.canonical.values()], [null, null]);
  });

  it('keys that are not emergent candidates are ignored', async () => {
    const out = await run([guard], { minPatients: 5 }, [['c:E_1=', 50], ['t:cough', 50]]);
    assert.equal(out.candidates, 1);
    assert.ok(!out.canonical.has('c:E_1=') && !out.canonical.has('t:cough'));
  });

  it('near-identical candidates merge under a low mergeSimilarity: named by the most supported member, forms its members of >= k records, vocabulary "emergent"', async () => {
    const out = await run([abdGuard, guard, sweats, rare], { minPatients: 5, mergeSimilarity: 0.5 });
    assert.equal(out.candidates, 4);
    assert.equal(out.kept, 2);
    // Both guarding candidates read as the one concept keyed by the most supported ("guarding", 9 records > 6).
    assert.equal(out.canonical.get('e:guard'), 'e:guard');
    assert.equal(out.canonical.get('e:abdominal guard'), 'e:guard');
    assert.equal(out.canonical.get('e:night sweat'), 'e:night sweat');
    assert.equal(out.canonical.get('e:guard abdomen'), null);
    const g = out.protos.get('e:guard')!;
    assert.ok(g, 'the concept is stored under its representative key');
    assert.ok(!out.protos.has('e:abdominal guard'));
    assert.equal(g.text, 'guarding', 'named by the surface of its most supported member');
    assert.equal(g.vocabulary, 'emergent');
    assert.deepEqual([...g.forms!].sort(), ['abdominal guarding', 'guarding']);
    const s = out.protos.get('e:night sweat')!;
    assert.equal(s.text, 'night sweats');
    assert.equal(s.vocabulary, 'emergent');
    assert.deepEqual(s.forms, ['night sweats']);
  });

  it('the name follows support, not input order or length', async () => {
    const out = await run([{ ...guard, records: 5 }, { ...abdGuard, records: 12 }], { minPatients: 5, mergeSimilarity: 0.5 });
    assert.equal(out.kept, 1);
    assert.equal(out.canonical.get('e:guard'), 'e:abdominal guard');
    assert.equal(out.protos.get('e:abdominal guard')!.text, 'abdominal guarding');
  });

  it('the same candidates stay apart at mergeSimilarity > 1, each its own concept', async () => {
    const out = await run([abdGuard, guard, sweats, rare], { minPatients: 5, mergeSimilarity: 1.01 });
    assert.equal(out.kept, 3);
    assert.equal(out.canonical.get('e:guard'), 'e:guard');
    assert.equal(out.canonical.get('e:abdominal guard'), 'e:abdominal guard');
    assert.deepEqual(out.protos.get('e:abdominal guard')!.forms, ['abdominal guarding']);
    assert.deepEqual(out.protos.get('e:guard')!.forms, ['guarding']);
    for (const p of out.protos.values()) assert.equal(p.vocabulary, 'emergent');
  });

  it('unrelated candidates stay apart at the default mergeSimilarity', async () => {
    const out = await run([guard, sweats], { minPatients: 5 });
    assert.equal(out.kept, 2);
  });

  it('beyond maxClustered the less shared candidates stay alone even when similar', async () => {
    const out = await run([guard, abdGuard], { minPatients: 5, mergeSimilarity: 0, maxClustered: 1 });
    assert.equal(out.kept, 2);
    assert.equal(out.canonical.get('e:abdominal guard'), 'e:abdominal guard');
  });

  // KNOWN BUG (left skipped, source not fixed here): clustering ignores the relative boundary that
  // emergent-phrases.ts draws with the "fh " prefix. With the hashed embedder "fh breast cancer" and
  // "breast cancer" are cosine 0.83, so at mergeSimilarity 0.8 the mother's cancer joins the patient's
  // concept (canonical e:fh breast cancer -> e:breast cancer, forms ['fh breast cancer', 'breast cancer']),
  // and at query time "mother had breast cancer" reads as the patient's feature. A real sentence
  // embedder barely weighs "fh", so the default 0.9 may well merge them too.
  it('a relative\'s candidate never merges into a patient concept, whatever the similarity', async () => {
    const cancer: Candidate = { stems: 'breast cancer', surface: 'breast cancer', records: 9 };
    const fhCancer: Candidate = { stems: 'fh breast cancer', surface: 'fh breast cancer', records: 6 };
    const out = await run([cancer, fhCancer], { minPatients: 5, mergeSimilarity: 0.8 });
    assert.equal(out.canonical.get('e:fh breast cancer'), 'e:fh breast cancer');
    assert.deepEqual(out.protos.get('e:breast cancer')!.forms, ['breast cancer']);
  });
});
