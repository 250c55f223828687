import { agnes } from 'ml-hclust';
import type { CategoryNode, FeatureNode, SubcategoryNode } from '../src/domain/kg.js';
import type { Hierarchy, HierarchyInput, HierarchySizes } from './hierarchy-types.js';
import { resolveSizes } from './hierarchy-types.js';
import { diseaseProfiles, distanceMatrix, distinctiveFeatures, featureLabel, meanProfile, type Profile } from './profiles.js';
import { uniqueSlugIds } from './text.js';

/**
 * Hierarchy without an LLM (MedRAG eq. 4, Θ only): agglomerative clustering of disease
 * manifestation profiles (prevalence vectors, cosine distance) cut into L2 subcategories;
 * the subcategories' mean profiles clustered again into L1 categories, so every
 * subcategory lands in exactly one category. Groups are named after their most
 * distinctive features.
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
}

export const DEFAULT_STATISTICAL_OPTIONS: StatisticalOptions = { method: 'ward', nameFeatures: 2, idf: true };

export function statisticalHierarchy(input: HierarchyInput, sizes: HierarchySizes, options: Partial<StatisticalOptions> = {}): Hierarchy {
  const opts = { ...DEFAULT_STATISTICAL_OPTIONS, ...options };
  const diseases = [...input.diseases].sort((a, b) => a.id.localeCompare(b.id));
  const byDisease = diseaseProfiles(input.manifestations);
  const raw = diseases.map((d) => byDisease.get(d.id) ?? new Map<string, number>());
  const profiles = opts.idf ? idfWeighted(raw) : raw;
  const featureById = new Map(input.features.map((f) => [f.id, f]));
  const { l2, l1 } = resolveSizes(diseases.length, sizes);

  const subGroups = cutInto(profiles, l2, opts.method);
  const subProfiles = subGroups.map((g) => meanProfile(g.map((i) => profiles[i]!)));
  const catGroups = cutInto(subProfiles, l1, opts.method);

  const subNames = subGroups.map((g) => groupName(g, profiles, featureById, opts.nameFeatures));
  const subIds = uniqueSlugIds('sub', subNames);
  const catNames = catGroups.map((cg) => groupName(cg.flatMap((s) => subGroups[s]!), profiles, featureById, opts.nameFeatures));
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
  const tree = agnes(distanceMatrix(profiles), { method, isDistanceMatrix: true });
  const groups = tree.group(Math.min(k, profiles.length)).children.map((c) => c.indices().sort((a, b) => a - b));
  return groups.sort((a, b) => a[0]! - b[0]!);
}

function groupName(members: number[], profiles: Profile[], featureById: Map<string, FeatureNode>, k: number): string {
  const inside = new Set(members);
  const outside = profiles.filter((_, i) => !inside.has(i));
  const labels: string[] = [];
  for (const id of distinctiveFeatures(members.map((i) => profiles[i]!), outside, k * 3)) {
    const f = featureById.get(id);
    const label = f ? featureLabel(f) : null;
    if (label && !labels.includes(label)) labels.push(label);
    if (labels.length === k) break;
  }
  return labels.length > 0 ? labels.join(' / ') : 'unclassified';
}
