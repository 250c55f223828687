import type { KgSnapshot } from '../query/kg-snapshot.js';
import { yesNoFeatureOf } from '../clinical-text/concepts/yes-feature.js';

/**
 * Knowledge where the records are silent (issue 48; not a MedRAG formula). A source may ship
 * curated rates of its diseases' findings (DiseaseNode.knownEvidence / knownRates; DDXPlus:
 * Orphanet's HPO annotations). A finding a disease's records never showed is priced from its
 * known rate k, as if the knowledge were m more records:
 *
 *   p_k(f,d) = (m·k + α) / (n' + m + 2α)      n' = n_d, or 0 when the source's dictionary does not
 *                                              declare f for d (its records were never asked)
 *
 * and the larger of p_k and the price without knowledge (p0, or pδ of scoring-declared.ts) is
 * kept: knowledge never makes a finding less likely than the records alone do. Why: DDXPlus
 * generates a condition's patients from the evidences it declares, so its sarcoidosis never
 * coughs and its Chagas never has palpitations; read with p0 (≈ 0.001), a vignette of chronic
 * Chagas or of pulmonary sarcoidosis put the truth below 1% (docs/free-text.md, "Knowledge where
 * DDXPlus never asked"). Used for free text only: a coded DDXPlus record comes
 * from the same generator as the KG's, for which "never asked" is "absent". m = 10 was chosen on
 * the six vignette dev sets only (5: top-1 79.3, 20: 79.6 / top-3 97.3; 10: 79.7 / 97.2).
 */
export interface KnowledgeParams {
  alpha: number;
  /** Records the known rate counts as. */
  m: number;
  /** The price of feature f for this disease without knowledge (p0, or the notes' p0). */
  basePrice: (f: number) => number;
}

export function knowledgeUnseen(s: KgSnapshot, d: number, p: KnowledgeParams, out: Map<number, readonly [number, number]>): void {
  const dis = s.diseases[d]!;
  const codes = dis.knownEvidence;
  const rates = dis.knownRates;
  if (!codes || !rates || p.m <= 0) return;
  const yes = yesNoFeatureOf(s);
  const declared = dis.declaredEvidence ? new Set(dis.declaredEvidence) : null;
  const shown = s.manifestations[d]!.position;
  codes.forEach((code, i) => {
    const f = yes.get(code);
    const k = rates[i];
    if (f === undefined || k === undefined || shown.has(f)) return;
    const n = declared && !declared.has(code) ? 0 : dis.recordCount;
    const pk = (p.m * k + p.alpha) / (n + p.m + 2 * p.alpha);
    const before = out.get(f);
    if (pk <= (before ? Math.exp(before[0]) : p.basePrice(f))) return;
    out.set(f, [Math.log(pk), Math.log(1 - pk)]);
  });
}
