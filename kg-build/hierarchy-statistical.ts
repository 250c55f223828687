import { agnes } from 'ml-hclust';
import type { CategoryNode, FeatureNode, SubcategoryNode } from '../src/domain/kg.js';
import type { Hierarchy, HierarchyInput, HierarchySizes } from './hierarchy-types.js';
import { resolveSizes } from './hierarchy-types.js';
import { conceptName, type ConceptNames } from './hierarchy-names.js';
import { NN_CHAIN_FROM, nnChain } from './nn-chain.js';
import { cosineDistance, diseaseProfiles, distanceMatrix, distinctiveFeatures, meanProfile, type Profile } from './profiles.js';
import { uniqueSlugIds } from './text.js';

/**
 * Hierarchy without an LLM (MedRAG eq. 4, Θ only): agglomerative clustering of disease
 * manifestation profiles (prevalence vectors, cosine distance) cut into L2 subcategories;
 * the subcategories' mean profiles clustered again into L1 categories, so every
 * subcategory lands in exactly one category. Groups are named after the short clinical
 * concepts of their most distinctive features (hierarchy-names.ts: "cough · sputum", never a
 * question sentence); a group none of whose features gives one is named by its diseases.
 */
export interface StatisticalOptions {
  /** Ward gives balanced groups on DDXPlus; average linkage leaves one giant group and many singletons. */
  method: 'average' | 'complete' | 'ward';
  /** Features used to name a group. */
  nameFeatures: number;
  /**
   * Weight prevalences by log(n / diseases with the feature): features nearly every disease
   * shows (pain questions in DDXPlus) stop dominating the cosine distance.
   */
  idf: boolean;
  /**
   * A subcategory may hold at most this many times the mean subcategory size; a larger one is
   * clustered again into groups of about the mean size. Why: on profiles with little structure
   * (5,000 generated diagnoses) Ward's cut left 1,605 diseases in one subcategory beside a median
   * of 18, and a subcategory's size is what the vote, the differences KG and the follow-ups walk.
   */
  maxSizeFactor: number;
}

export const DEFAULT_STATISTICAL_OPTIONS: StatisticalOptions = { method: 'ward', nameFeatures: 2, idf: true, maxSizeFactor: 4 };

export function statisticalHierarchy(input: HierarchyInput, sizes: HierarchySizes, options: Partial<StatisticalOptions> = {}, names: ConceptNames | null = null): Hierarchy {
  const opts = { ...DEFAULT_STATISTICAL_OPTIONS, ...options };
  const diseases = [...input.diseases].sort((a, b) => a.id.localeCompare(b.id));
  const byDisease = diseaseProfiles(input.manifestations);
  const raw = diseases.map((d) => byDisease.get(d.id) ?? new Map<string, number>());
  const profiles = opts.idf ? idfWeighted(raw) : raw;
  const featureById = new Map(input.features.map((f) => [f.id, f]));
  const { l2, l1 } = resolveSizes(diseases.length, sizes);

  const subGroups = splitOversized(cutInto(profiles, l2, opts.method), profiles, opts);
  const subProfiles = subGroups.map((g) => meanProfile(g.map((i) => profiles[i]!)));
  const catGroups = cutInto(subProfiles, l1, opts.method);

  const namer = { profiles, featureById, k: opts.nameFeatures, names, diseaseNames: diseases.map((d) => d.name) };
  const subNames = nameAll(subGroups, namer);
  const subIds = uniqueSlugIds('sub', subNames);
  const catNames = nameAll(catGroups.map((cg) => cg.flatMap((s) => subGroups[s]!)), namer);
  const catIds = uniqueSlugIds('cat', catNames);

  const categories: CategoryNode[] = catGroups.map((_, c) => ({ id: catIds[c]!, name: catNames[c]! }));
  const subcategories: SubcategoryNode[] = [];
  const subcategoryOf = new Map<string, string>();
  catGroups.forEach((cg, c) => {
    for (const s of cg) {
      subcategories.push({ id: subIds[s]!, name: subNames[s]!, categoryId: catIds[c]! });
      for (const i of subGroups[s]!) subcategoryOf.set(diseases[i]!.id, subIds[s]!);
    }
  });
  return { mode: 'statistical', categories, subcategories, subcategoryOf };
}

function idfWeighted(profiles: Profile[]): Profile[] {
  const deg = new Map<string, number>();
  for (const p of profiles) for (const id of p.keys()) deg.set(id, (deg.get(id) ?? 0) + 1);
  return profiles.map((p) => new Map([...p].map(([id, v]) => [id, v * Math.log(profiles.length / deg.get(id)!)])));
}

/** Exactly `k` groups of indices (fewer only if there are fewer items), in a stable order. */
function cutInto(profiles: Profile[], k: number, method: StatisticalOptions['method']): number[][] {
  if (profiles.length <= 1 || k <= 1) return [profiles.map((_, i) => i)];
  // ml-hclust's agnes is cubic; from NN_CHAIN_FROM items the nearest-neighbour chain (quadratic, the same dendrogram up to ties) builds it.
  const tree = profiles.length >= NN_CHAIN_FROM
    ? nnChain(profiles.length, (i, j) => cosineDistance(profiles[i]!, profiles[j]!), method)
    : agnes(distanceMatrix(profiles), { method, isDistanceMatrix: true });
  const groups = tree.group(Math.min(k, profiles.length)).children.map((c) => c.indices().sort((a, b) => a - b));
  return groups.sort((a, b) => a[0]! - b[0]!);
}

/**
 * Every group larger than maxSizeFactor × the mean size, clustered again into groups of about the
 * mean size, repeated while a pass still splits something (a re-cut of structureless profiles can
 * leave a big remainder: 1,605 → 498 → …); at most 8 passes.
 */
export function splitOversized(groups: number[][], profiles: Profile[], opts: Pick<StatisticalOptions, 'method' | 'maxSizeFactor'>): number[][] {
  const mean = profiles.length / Math.max(1, groups.length);
  const cap = Math.max(2, Math.ceil(opts.maxSizeFactor * mean));
  let out = groups;
  for (let pass = 0; pass < 8 && out.some((g) => g.length > cap); pass++) {
    const next: number[][] = [];
    for (const g of out) {
      if (g.length <= cap) next.push(g);
      else for (const part of cutInto(g.map((i) => profiles[i]!), Math.ceil(g.length / mean), opts.method)) next.push(part.map((j) => g[j]!));
    }
    if (next.length === out.length) break;
    out = next.map((g) => [...g].sort((a, b) => a - b)).sort((a, b) => a[0]! - b[0]!);
  }
  return out;
}

interface Namer {
  profiles: Profile[];
  featureById: Map<string, FeatureNode>;
  k: number;
  names: ConceptNames | null;
  diseaseNames: string[];
}

/** Names of groups of one tier, each distinct from the ones before it where the features allow. */
function nameAll(groups: number[][], n: Namer): string[] {
  const taken = new Set<string>();
  return groups.map((g) => {
    const name = groupName(g, n, taken);
    taken.add(name);
    return name;
  });
}

function groupName(members: number[], n: Namer, taken: ReadonlySet<string>): string {
  const inside = new Set(members);
  const outside = n.profiles.filter((_, i) => !inside.has(i));
  // Many candidates: scales, negative answers and sentences are skipped on the way.
  const ranked = distinctiveFeatures(members.map((i) => n.profiles[i]!), outside, n.k * 15)
    .map((id) => n.featureById.get(id))
    .filter((f): f is FeatureNode => f !== undefined);
  const name = conceptName(ranked, n.k, n.names, taken);
  if (name !== null) return name;
  const diseases = members.map((i) => n.diseaseNames[i]!);
  return diseases.length <= 2 ? diseases.join(' · ') : `${diseases.slice(0, 2).join(' · ')} and ${diseases.length - 2} more`;
}
