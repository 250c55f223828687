import type { Finding, NormalizedRecord } from '../../src/domain/record.js';
import type { ImportSummary, RecordSource } from '../../src/sources/types.js';
import type { FeatureNode, ManifestationEdge } from '../../src/domain/kg.js';
import type { ClusteredDisease } from '../../kg-build/cluster-diseases.js';
import { seededRandom } from '../../src/util/rng.js';

/** An in-memory RecordSource for build tests: streams the given records, counts them. */
export class MemorySource implements RecordSource {
  private emitted = 0;
  closed = 0;
  constructor(
    private readonly rows: readonly NormalizedRecord[],
    readonly description = 'memory:test',
  ) {}

  async *records(): AsyncIterable<NormalizedRecord> {
    this.emitted = 0;
    for (const r of this.rows) {
      this.emitted++;
      yield r;
    }
  }

  summary(): ImportSummary {
    return { rowsRead: this.emitted, recordsEmitted: this.emitted, skipped: 0, skippedByReason: {}, examples: [] };
  }

  async close(): Promise<void> {
    this.closed++;
  }
}

/** A seeded PRNG (mulberry32) so synthetic data is identical on every run. */
export const rng = seededRandom;

export interface SyntheticDisease {
  name: string;
  icd10?: string | null;
  /** code -> probability that a record of this disease shows it. */
  findings: Record<string, number>;
}

/** A coded finding "E_<n>" rendered like a DDXPlus boolean answer. */
export function codedFinding(code: string, text = `symptom ${code}`): Finding {
  return { text, polarity: 'present', code, valueCode: null, question: text, valueText: 'yes', antecedent: false };
}

/** Records drawn from per-disease finding probabilities (deterministic for a seed). */
export function syntheticRecords(diseases: readonly SyntheticDisease[], opts: { perDisease: number; seed: number; texts?: Record<string, string> }): NormalizedRecord[] {
  const rand = rng(opts.seed);
  const out: NormalizedRecord[] = [];
  for (const d of diseases) {
    for (let i = 0; i < opts.perDisease; i++) {
      const findings = Object.entries(d.findings)
        .filter(([, p]) => rand() < p)
        .map(([code]) => codedFinding(code, opts.texts?.[code]));
      out.push({
        id: `memory:test:${out.length}`,
        diagnosis: d.name,
        icd10: d.icd10 ?? null,
        age: 20 + Math.floor(rand() * 60),
        sex: rand() < 0.5 ? 'M' : 'F',
        findings,
        initialFindingCode: findings[0]?.code ?? null,
        text: findings.map((f) => f.text).join('\n'),
        location: `memory:${out.length + 1}`,
      });
    }
  }
  return out;
}

/**
 * A small hand-shaped KG input for hierarchy / key-difference tests: `blocks` groups of
 * diseases; each group shares its own block of features at high prevalence, plus
 * a disease-specific feature that only that disease shows often.
 */
export function blockFixture(blocks: number, perBlock: number, seed = 3) {
  const rand = rng(seed);
  const diseases: ClusteredDisease[] = [];
  const features: FeatureNode[] = [];
  const manifestations: ManifestationEdge[] = [];
  const feature = (id: string, text: string): string => {
    if (!features.some((f) => f.id === id)) features.push({ id, text, kind: 'ehr', code: id, valueCode: null, question: text, valueText: 'yes', antecedent: false });
    return id;
  };
  for (let b = 0; b < blocks; b++) {
    for (let i = 0; i < perBlock; i++) {
      const id = `dis:b${b}-d${i}`;
      diseases.push({ id, name: `Block ${b} disease ${i}`, icd10: null, recordCount: 50, aliases: [] });
      for (let k = 0; k < 5; k++) {
        const p = 0.7 + 0.3 * rand();
        manifestations.push({ diseaseId: id, featureId: feature(`feat:b${b}-${k}`, `block ${b} sign ${k}`), prevalence: p, count: Math.round(p * 50), source: 'ehr' });
      }
      manifestations.push({ diseaseId: id, featureId: feature(`feat:own-${b}-${i}`, `own sign of ${b}-${i}`), prevalence: 0.9, count: 45, source: 'ehr' });
      manifestations.push({ diseaseId: id, featureId: feature('feat:common', 'common sign'), prevalence: 0.5, count: 25, source: 'ehr' });
    }
  }
  return { diseases, features, manifestations };
}
