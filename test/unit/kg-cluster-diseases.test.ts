import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import { clusterDiseases } from '../../kg-build/cluster-diseases.js';
import { namesConflict, nameTokens } from '../../kg-build/name-guard.js';
import { normalizeName } from '../../kg-build/text.js';
import { dot, embedAll } from '../../kg-build/vectors.js';
import { agnes } from 'ml-hclust';

const CONDITIONS = fileURLToPath(new URL('../../datasets/ddxplus/release_conditions.json', import.meta.url));

function ddxplusNames(): string[] {
  const raw = JSON.parse(readFileSync(CONDITIONS, 'utf8')) as Record<string, { 'cond-name-eng': string }>;
  return Object.values(raw).map((c) => c['cond-name-eng']);
}

describe('kg-build cluster-diseases (MedRAG eq. 3)', () => {
  const embeddings = new HashedEmbedder();

  it('clusters each component of "closer than the cut" alone, with the clusters one dendrogram of every name gives', async () => {
    // DDXPlus names with misspelt and qualified variants: several multi-name components, many singletons.
    const names = ddxplusNames().flatMap((n, i) => (i % 3 === 0 ? [n, n.toLowerCase().replace(/e/, 'ee'), `possible ${n}`] : [n]));
    const res = await clusterDiseases({ embeddings, diagnoses: names.map((raw) => ({ raw, count: 1, icd10: null })) });
    // The reference: ml-hclust over the full matrix, as the build did before (same distances, guard included).
    const keys = [...new Set(names.map((n) => normalizeName(n)))];
    const vecs = await embedAll(embeddings, keys.map((k) => nameTokens(k).join(' ') || k));
    const dist = keys.map((a, i) => keys.map((b, j) => (i === j ? 0 : namesConflict(a, b) ? 4 : Math.max(0, 1 - dot(vecs[i]!, vecs[j]!)))));
    const want = agnes(dist, { method: 'complete', isDistanceMatrix: true }).cut(0.4).map((c) => c.indices().map((i) => keys[i]!).sort().join('|')).sort();
    // The raw names each disease holds (its name may be a corrected spelling no source row uses: disease-names.json).
    const members = new Map<string, Set<string>>();
    for (const [raw, id] of res.diseaseOf) members.set(id, (members.get(id) ?? new Set()).add(normalizeName(raw)));
    const got = [...members.values()].map((m) => [...m].sort().join('|')).sort();
    assert.ok(want.some((c) => c.includes('|')), 'the fixture has clusters of several names');
    assert.deepEqual(got, want);
  });

  it('unifies spelling variants and names the cluster after the most frequent spelling', async () => {
    const res = await clusterDiseases({
      embeddings,
      diagnoses: [
        { raw: 'possible_nstemi__stemi', count: 3, icd10: null },
        { raw: 'Possible NSTEMI / STEMI', count: 10, icd10: 'I21' },
        { raw: 'Atrial fibrillation', count: 5, icd10: 'I48.91' },
        { raw: 'atrial fibrilation', count: 1, icd10: null },
      ],
    });
    assert.equal(res.diseases.length, 2);
    const mi = res.diseases.find((d) => d.name === 'Possible NSTEMI / STEMI');
    assert.ok(mi, 'most frequent spelling names the disease');
    assert.deepEqual(mi.aliases, ['possible_nstemi__stemi']);
    assert.equal(mi.recordCount, 13);
    assert.equal(mi.icd10, 'I21');
    assert.equal(res.diseaseOf.get('possible_nstemi__stemi'), mi.id);
    const af = res.diseases.find((d) => d.name === 'Atrial fibrillation');
    assert.deepEqual(af?.aliases, ['atrial fibrilation']);
  });

  it('keeps the 49 DDXPlus pathologies distinct', async () => {
    const names = ddxplusNames();
    assert.equal(names.length, 49);
    const res = await clusterDiseases({ embeddings, diagnoses: names.map((raw) => ({ raw, count: 1, icd10: null })) });
    assert.equal(res.diseases.length, 49);
    assert.equal(new Set(res.diseases.map((d) => d.id)).size, 49);
    // DDXPlus misspells one name: the disease reads as clinicians spell it, the release's spelling an alias (disease-names.json).
    for (const d of res.diseases) assert.deepEqual(d.aliases, d.name === 'Laryngospasm' ? ['Larygospasm'] : [], d.name);
    assert.equal(res.diseaseOf.get('Larygospasm'), 'dis:laryngospasm');
  });

  it('without the token guard a loose threshold merges stable and unstable angina; the guard prevents it', async () => {
    const diagnoses = ['Stable angina', 'Unstable angina', 'Acute rhinosinusitis', 'Chronic rhinosinusitis'].map((raw) => ({ raw, count: 1, icd10: null }));
    const loose = await clusterDiseases({ embeddings, diagnoses }, { threshold: 0.6, tokenGuard: false });
    assert.ok(loose.diseases.length < 4);
    const guarded = await clusterDiseases({ embeddings, diagnoses }, { threshold: 0.6, tokenGuard: true });
    assert.equal(guarded.diseases.length, 4);
  });

  it('name guard: qualifiers, typos and acronyms are not conflicts; differing words are', () => {
    assert.equal(namesConflict('Stable angina', 'Unstable angina'), true);
    assert.equal(namesConflict('Pulmonary neoplasm', 'Pancreatic neoplasm'), true);
    assert.equal(namesConflict('Larygospasm', 'Laryngospasm'), false);
    assert.equal(namesConflict('Pneumonia', 'Pneumonia, unspecified'), false);
    assert.equal(namesConflict('COPD exacerbation', 'chronic obstructive pulmonary disease exacerbation'), false);
  });

  it('gives stable ids: the same input clusters to the same ids', async () => {
    const diagnoses = ddxplusNames().map((raw, i) => ({ raw, count: i + 1, icd10: null }));
    const a = await clusterDiseases({ embeddings, diagnoses });
    const b = await clusterDiseases({ embeddings, diagnoses: [...diagnoses].reverse() });
    assert.deepEqual(a.diseases.map((d) => d.id), b.diseases.map((d) => d.id));
  });
});
