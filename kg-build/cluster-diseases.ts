import type { Embeddings } from '@langchain/core/embeddings';
import { agnes } from 'ml-hclust';
import { NN_CHAIN_FROM, nnChain } from './nn-chain.js';
import type { DiseaseNode } from '../src/domain/kg.js';
import { nameTokens, namesConflict } from './name-guard.js';
import { normalizeName, uniqueSlugIds } from './text.js';
import { dot, embedAll } from './vectors.js';
import { addTallies, type DemographicTally } from '../src/domain/demographics.js';
import diseaseNames from '../datasets/lexicon/disease-names.json' with { type: 'json' };

// MedRAG eq. 3: E_L3 = C(E_L3raw, E) — agglomerative clustering of embedded raw diagnosis strings.

export interface RawDiagnosis {
  raw: string;
  count: number;
  /** Most frequent ICD-10 code seen with this raw string, if any. */
  icd10: string | null;
  /** Records by age band and sex (absent: the source gave none). */
  demographics?: DemographicTally;
}

export interface ClusterDiseasesOptions {
  /** Cosine-distance cut of the dendrogram: names closer than this may merge. */
  threshold: number;
  method: 'complete' | 'average';
  /** Cannot-link names that each carry a word the other lacks (see name-guard.ts). */
  tokenGuard: boolean;
}

export const DEFAULT_CLUSTER_OPTIONS: ClusterDiseasesOptions = { threshold: 0.4, method: 'complete', tokenGuard: true };

export type ClusteredDisease = Omit<DiseaseNode, 'subcategoryId'>;

export interface DiseaseClusters {
  diseases: ClusteredDisease[];
  /** raw diagnosis string -> disease id */
  diseaseOf: Map<string, string>;
}

interface NameGroup {
  key: string;
  members: RawDiagnosis[];
  count: number;
}

/** Distance used to keep guarded pairs apart: above any cosine distance, so complete linkage never joins them. */
const FORBIDDEN = 4;

export async function clusterDiseases(
  input: { diagnoses: readonly RawDiagnosis[]; embeddings: Embeddings },
  options: Partial<ClusterDiseasesOptions> = {},
): Promise<DiseaseClusters> {
  const opts = { ...DEFAULT_CLUSTER_OPTIONS, ...options };
  // Strings equal after normalisation are the same name before any embedding.
  const byKey = new Map<string, NameGroup>();
  for (const d of input.diagnoses) {
    const key = normalizeName(d.raw);
    const g = byKey.get(key) ?? { key, members: [], count: 0 };
    g.members.push(d);
    g.count += d.count;
    byKey.set(key, g);
  }
  const groups = [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key));
  const clusters = await cutClusters(groups, input.embeddings, opts);

  const named = clusters.map((members) => nameCluster(members.flatMap((g) => g.members)));
  named.sort((a, b) => a.name.localeCompare(b.name));
  const ids = uniqueSlugIds('dis', named.map((n) => n.name));
  const diseaseOf = new Map<string, string>();
  const diseases = named.map((n, i) => {
    const id = ids[i]!;
    for (const m of n.members) diseaseOf.set(m.raw, id);
    const demo = n.members.reduce<DemographicTally | null>((acc, m) => (m.demographics ? (acc ? addTallies(acc, m.demographics) : m.demographics) : acc), null);
    return { id, name: n.name, icd10: n.icd10, recordCount: n.recordCount, aliases: n.aliases, ageBands: demo?.ageBands ?? null, sexCounts: demo?.sexCounts ?? null };
  });
  return { diseases, diseaseOf };
}

async function cutClusters(groups: NameGroup[], embeddings: Embeddings, opts: ClusterDiseasesOptions): Promise<NameGroup[][]> {
  if (groups.length <= 1) return groups.map((g) => [g]);
  // Qualifiers ("possible", "unspecified") carry no identity: embed the name without them.
  const vecs = await embedAll(embeddings, groups.map((g) => nameTokens(g.key).join(' ') || g.key));
  const n = groups.length;
  const embedded = (i: number, j: number) => Math.max(0, 1 - dot(vecs[i]!, vecs[j]!));
  const guarded = (i: number, j: number, d: number) => (opts.tokenGuard && namesConflict(groups[i]!.key, groups[j]!.key) ? FORBIDDEN : d);
  const distance = (i: number, j: number) => guarded(i, j, embedded(i, j));
  // Complete and average linkage never merge two sets whose every pair is farther apart than the
  // cut, so the cut's clusters lie inside the connected components of "closer than the cut":
  // clustering each component alone gives the same clusters, and agglomerative clustering
  // (cubic) runs on a few names at a time instead of every diagnosis of a hospital.
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  // The embedding first: the name guard (tokenising both names) only for the few pairs close enough to matter.
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const d = embedded(i, j);
      if (d <= opts.threshold && guarded(i, j, d) <= opts.threshold) parent[find(i)] = find(j);
    }
  }
  const components = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const root = find(i);
    const members = components.get(root);
    if (members) members.push(i);
    else components.set(root, [i]);
  }
  const out: NameGroup[][] = [];
  for (const members of components.values()) {
    if (members.length === 1) {
      out.push([groups[members[0]!]!]);
      continue;
    }
    const tree = members.length >= NN_CHAIN_FROM
      ? nnChain(members.length, (a, b) => distance(members[a]!, members[b]!), opts.method)
      : agnes(members.map((i) => members.map((j) => (i === j ? 0 : distance(i, j)))), { method: opts.method, isDistanceMatrix: true });
    for (const c of tree.cut(opts.threshold)) out.push(c.indices().map((k) => groups[members[k]!]!));
  }
  return out;
}

/** Clinicians' spellings of names a source release misspells (datasets/lexicon/disease-names.json). */
const CORRECTED: Readonly<Record<string, string>> = diseaseNames.corrections;

/**
 * The most frequent raw spelling names the disease (MedRAG 4.1.1), as clinicians spell it where the
 * source misspells it; the other spellings (and a corrected one) become aliases.
 */
function nameCluster(members: RawDiagnosis[]): { name: string; aliases: string[]; icd10: string | null; recordCount: number; members: RawDiagnosis[] } {
  const sorted = [...members].sort((a, b) => b.count - a.count || a.raw.localeCompare(b.raw));
  const name = CORRECTED[sorted[0]!.raw] ?? sorted[0]!.raw;
  const icdVotes = new Map<string, number>();
  for (const m of members) if (m.icd10) icdVotes.set(m.icd10, (icdVotes.get(m.icd10) ?? 0) + m.count);
  const icd10 = [...icdVotes.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
  return {
    name,
    aliases: sorted.map((m) => m.raw).filter((raw) => raw !== name).sort(),
    icd10,
    recordCount: members.reduce((s, m) => s + m.count, 0),
    members,
  };
}
