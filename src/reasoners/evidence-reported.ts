import type { FeatureMatch } from '../query/contracts.js';
import type { KgSnapshot } from '../query/kg-snapshot.js';
import type { ReportedFeature } from './scoring-naive-bayes.js';

/**
 * Turns matches into the features the patient reported. A finding's top-m matches are
 * alternatives (or those sharing an `alternatives` key: one concept of a finding that names several), not separate findings: only those within `margin` of its best match
 * count, sharing one unit of weight (an exact match of 1.0 leaves its neighbours out).
 * A fuzzy match counts in proportion to its confidence (sim − t) / (1 − t), so a loose
 * match cannot rule a disease out as hard as an exact one. A feature reported by
 * several findings counts once; 'present' wins over 'absent'.
 */
export function reportedFeatures(s: KgSnapshot, matches: FeatureMatch[], opts: { margin: number; threshold: number }): ReportedFeature[] {
  const byFinding = new Map<string, FeatureMatch[]>();
  for (const m of matches) {
    const key = m.alternatives ?? String(m.findingIndex);
    const list = byFinding.get(key) ?? [];
    list.push(m);
    byFinding.set(key, list);
  }
  const out = new Map<number, ReportedFeature>();
  let group = 0;
  for (const list of byFinding.values()) {
    group++;
    const best = Math.max(...list.map((m) => m.similarity));
    const kept = list.filter((m) => m.similarity >= best - opts.margin);
    for (const m of kept) {
      const f = s.featureIndex.get(m.featureId);
      if (f === undefined) continue;
      const confidence = Math.min(1, Math.max(0, (m.similarity - opts.threshold) / (1 - opts.threshold || 1)));
      const next: ReportedFeature = { feature: f, present: m.polarity === 'present', weight: confidence / kept.length, group };
      const prev = out.get(f);
      if (!prev || (next.present && !prev.present) || (next.present === prev.present && next.weight > prev.weight)) out.set(f, next);
    }
  }
  return [...out.values()];
}
