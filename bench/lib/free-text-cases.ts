import type { QueryService } from '../../src/query/query-service.js';
import { textInput } from '../../src/query/query-service.js';
import type { Vignette } from './free-text-set.js';
import { insufficientFlag, insufficientReason, negatedCodes, rankOf } from './free-text-score.js';
import type { TfidfKnn } from './tfidf-knn.js';

/**
 * One vignette through both systems. dxgraph gets the vignette's text only, through the same
 * `diagnose(textInput(text))` call `dxgraph ask` makes (no age, sex or findings: parsing those
 * out of the text is part of what is measured). Gold answers and the baseline's labels are
 * disease ids of the built KG, so both systems are scored in the same label space.
 */
export interface ShownDisease {
  disease: string;
  score: number;
}

export interface ShownMatch {
  featureText: string;
  code: string | null;
  polarity: 'present' | 'absent';
  similarity: number;
  via: string | null;
}

export interface DxgraphCase {
  rank: number | null;
  top: ShownDisease[];
  findings: number;
  matches: ShownMatch[];
  negatedAsPresent: string[];
  negationsCaught: string[];
  insufficient: boolean | null;
  insufficientReason: string | null;
  ms: { match: number | null; textToFeatures: number | null; total: number };
}

export interface FreeTextCase {
  id: string;
  condition: string;
  style: string;
  tags: string[];
  text: string;
  /** The condition's disease id in the KG; null when the build has no such disease (no system can be right). */
  goldDiseaseId: string | null;
  dxgraph: DxgraphCase;
  baseline: { rank: number | null; top: ShownDisease[] };
}

export interface CaseContext {
  service: QueryService;
  baseline: TfidfKnn;
  /** Raw diagnosis (condition key), lower-cased → disease id (evaluate-ask's diagnosisToDisease). */
  goldOf: ReadonlyMap<string, string>;
}

const SHOWN = 5;

export async function runCase(ctx: CaseContext, v: Vignette): Promise<FreeTextCase> {
  const { snapshot } = ctx.service;
  const nameOf = (id: string) => snapshot.diseases[snapshot.diseaseIndex.get(id) ?? -1]?.name ?? id;
  const codeOf = (featureId: string) => snapshot.features[snapshot.featureIndex.get(featureId) ?? -1]?.code ?? null;
  const gold = ctx.goldOf.get(v.condition.toLowerCase()) ?? null;

  const t0 = performance.now();
  const res = await ctx.service.diagnose(textInput(v.text));
  const total = performance.now() - t0;
  const t = res.trace.timingsMs;
  const matchMs = t.match ?? null;
  const ranked = res.differential.map((d) => d.diseaseId);
  const dxgraph: DxgraphCase = {
    rank: rankOf(ranked, gold),
    top: res.differential.slice(0, SHOWN).map((d) => ({ disease: d.disease, score: d.score })),
    findings: res.trace.findings.length,
    matches: res.trace.matches.map((m) => ({ featureText: m.featureText, code: codeOf(m.featureId), polarity: m.polarity, similarity: m.similarity, via: m.via ?? null })),
    negatedAsPresent: negatedCodes(res.trace.matches, codeOf, v.absentEvidences, 'present'),
    negationsCaught: negatedCodes(res.trace.matches, codeOf, v.absentEvidences, 'absent'),
    insufficient: insufficientFlag(res),
    insufficientReason: insufficientReason(res),
    ms: { match: matchMs, textToFeatures: matchMs === null ? null : matchMs + (t.decompose ?? 0), total },
  };

  const base = ctx.baseline.rank(v.text);
  return {
    id: v.id,
    condition: v.condition,
    style: v.style,
    tags: [...v.tags],
    text: v.text,
    goldDiseaseId: gold,
    dxgraph,
    baseline: {
      rank: rankOf(base.map((b) => b.label), gold),
      top: base.slice(0, SHOWN).map((b) => ({ disease: nameOf(b.label), score: b.score })),
    },
  };
}
