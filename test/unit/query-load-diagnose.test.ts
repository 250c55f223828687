import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArtifactError, ConfigError, InputError } from '../../src/errors.js';
import { loadSnapshot, openArtifacts, type IndexOpener } from '../../src/query/load-snapshot.js';
import { diagnose, type DiagnoseDeps } from '../../src/query/diagnose.js';
import { SigmaRanker } from '../../src/query/followups-sigma.js';
import { textInput } from '../../src/query/query-service.js';
import { EvidenceReasoner } from '../../src/reasoners/evidence-reasoner.js';
import type { Reasoner } from '../../src/reasoners/reasoner.js';
import { MemoryVectorIndex } from '../support/snapshot-fixture.js';
import { tinyKg } from '../support/query-kg.js';

function artifactsDir(over: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'query-art-'));
  mkdirSync(join(dir, 'builds', 'b1'), { recursive: true });
  writeFileSync(join(dir, 'current'), 'b1\n');
  const manifest = {
    buildId: 'b1', source: 'test', embedder: 'emb-a', embeddingDim: 4,
    recordIndex: { kind: 'flat', size: 1, file: 'records.faiss', rows: 'records.jsonl' },
    featureIndex: { size: 0, file: 'features.faiss', ids: 'features.ids.json' },
    recordIdsFile: 'records.ids.json', createdAt: '2025-01-01T00:00:00Z', ...over,
  };
  writeFileSync(join(dir, 'builds', 'b1', 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(join(dir, 'builds', 'b1', 'records.jsonl'), `${JSON.stringify({ id: 'r1', diagnosis: 'Flu', diseaseId: 'dis:flu', text: 'fever' })}\n`);
  return dir;
}

const opener: IndexOpener = async (path) => new MemoryVectorIndex(4, path.endsWith('records.faiss') ? ['r1'] : [], path.endsWith('records.faiss') ? [new Float32Array(4)] : []);

describe('query: load snapshot and artifacts', () => {
  it('reads the KG once into a snapshot with upward maps', async () => {
    const reads: string[] = [];
    const graph = {
      read: async (name: string) => {
        reads.push(name);
        if (name === 'query/snapshot-build') return [{ id: 'b1' }];
        if (name === 'query/snapshot-hierarchy') return [{ categories: [{ id: 'cat:a', name: 'A' }], subcategories: [{ id: 'sub:x', name: 'X', categoryId: 'cat:a' }], diseases: [{ id: 'dis:flu', name: 'Flu', subcategoryId: 'sub:x', icd10: null, recordCount: 4, aliases: ['flu'] }] }];
        if (name === 'query/snapshot-features') return [{ id: 'feat:1', text: 'fever', kind: 'ehr', code: 'E_91', valueCode: null, question: 'Fever?', valueText: 'yes', antecedent: false }];
        if (name === 'query/snapshot-notes-mentions') return [];
        return [{ diseaseId: 'dis:flu', featureId: 'feat:1', prevalence: 0.75, count: 3, source: 'ehr' }];
      },
    };
    const s = await loadSnapshot(graph);
    assert.deepEqual(reads, ['query/snapshot-build', 'query/snapshot-hierarchy', 'query/snapshot-features', 'query/snapshot-manifestations', 'query/snapshot-notes-mentions']);
    assert.deepEqual(s.notesMentions, [null]);
    assert.equal(s.buildId, 'b1');
    assert.deepEqual([...s.featureDiseases[0]!], [0]);
    assert.deepEqual([...s.featureSubcategories[0]!], [0]);
    assert.equal(s.subcategoryCategory[0], 0);
    assert.equal(s.featureByCode.get('E_91|'), 0);
    assert.ok(Math.abs(s.manifestations[0]!.prevalence[0]! - 0.75) < 1e-6);
  });

  it('opens the artifacts of the current build', async () => {
    const a = await openArtifacts({ dataDir: artifactsDir(), embedderId: 'emb-a', openIndex: opener });
    assert.equal(a.manifest.buildId, 'b1');
    assert.equal(a.records.get('r1')?.diagnosis, 'Flu');
  });

  it('refuses another embedder with a ConfigError naming both', async () => {
    await assert.rejects(openArtifacts({ dataDir: artifactsDir(), embedderId: 'emb-b', openIndex: opener }), (e: unknown) => e instanceof ConfigError && /emb-a/.test(e.message) && /emb-b/.test(e.message));
  });

  it('missing build, corrupt manifest, unreadable index and size mismatch are ArtifactErrors naming the file', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'query-art-'));
    await assert.rejects(openArtifacts({ dataDir: empty, embedderId: 'emb-a', openIndex: opener }), (e: unknown) => e instanceof ArtifactError && e.path.endsWith('current'));
    await assert.rejects(openArtifacts({ dataDir: artifactsDir({ embeddingDim: 'x' }), embedderId: 'emb-a', openIndex: opener }), (e: unknown) => e instanceof ArtifactError && /manifest\.json/.test(e.message));
    const broken: IndexOpener = async (p) => (p.endsWith('features.faiss') ? Promise.reject(new Error('bad magic')) : opener(p, null));
    await assert.rejects(openArtifacts({ dataDir: artifactsDir(), embedderId: 'emb-a', openIndex: broken }), (e: unknown) => e instanceof ArtifactError && /features\.faiss/.test(e.message));
    await assert.rejects(openArtifacts({ dataDir: artifactsDir({ recordIndex: { kind: 'flat', size: 5, file: 'records.faiss', rows: 'records.jsonl' } }), embedderId: 'emb-a', openIndex: opener }), (e: unknown) => e instanceof ArtifactError && /records\.faiss/.test(e.message));
  });

  it('reads record rows line by line (CRLF too); a missing file or a corrupt line is an ArtifactError naming it', async () => {
    const ok = artifactsDir({ recordIndex: { kind: 'flat', size: 1, file: 'records.faiss', rows: 'rows.jsonl' } });
    writeFileSync(join(ok, 'builds', 'b1', 'rows.jsonl'), `\r\n${JSON.stringify({ id: 'r1', diagnosis: 'Flu', diseaseId: 'dis:flu', text: 'fever' })}\r\n\r\n`);
    assert.equal((await openArtifacts({ dataDir: ok, embedderId: 'emb-a', openIndex: opener })).records.get('r1')?.text, 'fever');
    const missing = artifactsDir({ recordIndex: { kind: 'flat', size: 1, file: 'records.faiss', rows: 'nowhere.jsonl' } });
    await assert.rejects(openArtifacts({ dataDir: missing, embedderId: 'emb-a', openIndex: opener }), (e: unknown) => e instanceof ArtifactError && /record rows missing or unreadable at .*nowhere\.jsonl/.test(e.message));
    const corrupt = artifactsDir();
    writeFileSync(join(corrupt, 'builds', 'b1', 'records.jsonl'), `${JSON.stringify({ id: 'r1', diagnosis: 'Flu', text: 'x' })}\n{"id": 1}\n`);
    await assert.rejects(openArtifacts({ dataDir: corrupt, embedderId: 'emb-a', openIndex: opener }), (e: unknown) => e instanceof ArtifactError && /records\.jsonl:2 is corrupt/.test(e.message));
  });
});

describe('query: diagnose use case', () => {
  async function deps(reasoners: Reasoner[] = [new EvidenceReasoner()]): Promise<DiagnoseDeps & { reads: string[] }> {
    const fx = await tinyKg();
    const reads: string[] = [];
    const graph = { read: async (name: string) => (reads.push(name), []) };
    return { reads, graph, ...fx, reasoners, followUpRanker: new SigmaRanker(), differencesPerDisease: 10 };
  }

  it('wires the stages: differential, trace and a timing per stage; one graph read per query', async () => {
    const d = await deps();
    const res = await diagnose(d, textInput('chest pain, sweating. No cough.'));
    assert.equal(res.differential[0]!.disease, 'Angina');
    assert.equal(res.trace.chosenSubcategory?.name, 'cardiac');
    assert.deepEqual(res.trace.findings.map((f) => f.polarity), ['present', 'present', 'absent']);
    assert.deepEqual(d.reads, ['query/differences-kg']);
    assert.deepEqual(Object.keys(res.trace.timingsMs).sort(), ['decompose', 'differencesKg', 'followUps', 'match', 'reason', 'retrieve', 'total', 'vote']);
    assert.ok(res.followUps.every((q) => !res.trace.matches.some((m) => m.featureId === q.featureId)));
  });

  it('DXGRAPH_RECORD_RETRIEVAL=none: no retrieval step, no similar records or profiles, and the trace says so; the KG still ranks', async () => {
    const on = await diagnose(await deps(), textInput('chest pain, sweating'));
    assert.ok(on.trace.retrieved.length > 0, 'retrieval on finds similar records');
    assert.equal(on.trace.retrieval?.mode, 'dense');
    const profilesAsked: string[] = [];
    const profiles = { similarities: (t: string) => (profilesAsked.push(t), new Float64Array(3)) } as unknown as DiagnoseDeps['profiles'];
    const off = { ...(await deps()), recordRetrieval: 'none' as const, profiles };
    for (const retrieval of ['record', 'find'] as const) {
      const res = await diagnose(off, textInput('chest pain, sweating', { retrieval }));
      assert.deepEqual(res.trace.retrieved, []);
      assert.equal(res.trace.retrieval?.mode, 'none');
      assert.match(res.trace.retrieval?.note ?? '', /DXGRAPH_RECORD_RETRIEVAL=none/);
      assert.ok(!('retrieve' in res.trace.timingsMs) && !('profiles' in res.trace.timingsMs), Object.keys(res.trace.timingsMs).join());
      assert.equal(res.differential[0]!.disease, 'Angina');
      assert.ok(res.differential[0]!.evidence.every((line) => !/similar records/.test(line)), res.differential[0]!.evidence.join('; '));
    }
    assert.deepEqual(profilesAsked, []);
  });

  it('rejects input without findings and an LLM request without an LLM', async () => {
    const d = await deps();
    await assert.rejects(diagnose(d, textInput('   ')), (e: unknown) => e instanceof InputError && e.field === 'text');
    await assert.rejects(diagnose(d, textInput('fever', { reasoner: 'llm' })), (e: unknown) => e instanceof InputError && e.field === 'options.reasoner');
  });

  it("'auto' uses the LLM reasoner when one is configured, 'evidence' forces the offline one", async () => {
    const llm: Reasoner = { name: 'llm', reason: async () => ({ differential: [], followUps: [], report: { narrative: 'n', treatments: [], medications: [] }, degraded: false }) };
    const d = await deps([new EvidenceReasoner(), llm]);
    assert.equal((await diagnose(d, textInput('fever'))).reasoner, 'llm');
    assert.equal((await diagnose(d, textInput('fever', { reasoner: 'evidence' }))).reasoner, 'evidence');
  });
});
