import { z } from 'zod';
import links from './knowledge/condition-orphanet.json' with { type: 'json' };
import terms from './knowledge/evidence-hpo.json' with { type: 'json' };
import derived from './knowledge/disease-knowledge.json' with { type: 'json' };
import type { DiseaseKnowledge } from '../types.js';
import type { DdxplusDictionary } from './dictionary.js';

/**
 * What Orphanet's HPO annotations say of a DDXPlus condition's findings (issue 48). DDXPlus
 * generates each condition's patients from the evidences its dictionary declares, so a finding it
 * never declares for a condition was never asked: DDXPlus's sarcoidosis has no cough and its Chagas
 * no palpitations, and a KG learnt from its records alone takes "never asked" for "never seen".
 * The rates come from three shipped files (src/sources/ddxplus/knowledge/): which HPO terms each
 * evidence asks about and which Orphanet disease each condition is (both curated), and the rates
 * derived from them (scripts/derive-ddxplus-knowledge.ts). The reasoner uses them for free text
 * only (src/reasoners/scoring-knowledge.ts).
 */
const code = z.string().regex(/^E_\d+$/);
const hpoId = z.string().regex(/^HP:\d{7}$/);
const linksSchema = z.strictObject({ version: z.literal(1), provenance: z.string().min(1), conditions: z.record(z.string().min(1), z.strictObject({ id: z.string().regex(/^(ORPHA|OMIM):\d+$/), name: z.string().min(1) })) });
const termsSchema = z.strictObject({ version: z.literal(1), provenance: z.string().min(1), evidence: z.record(code, z.strictObject({ question: z.string().min(1), hpo: z.record(hpoId, z.string().min(1)), exclude: z.record(hpoId, z.string().min(1)).optional() })) });
const derivedSchema = z.strictObject({
  version: z.literal(1),
  provenance: z.string().min(1),
  conditions: z.record(z.string().min(1), z.strictObject({ orphanet: z.string(), name: z.string(), rates: z.record(code, z.number().min(0).max(1)) })),
});

/** Condition key (release_conditions.json) → its Orphanet disease. */
export const conditionLinks = () => linksSchema.parse(links).conditions;
/** Evidence code → the HPO terms it asks about. */
export const evidenceTerms = (): Record<string, string[]> => Object.fromEntries(Object.entries(termsSchema.parse(terms).evidence).map(([c, e]) => [c, Object.keys(e.hpo)]));
/** Evidence code → the HPO terms below its own that it does not ask about (absent: none). */
export const evidenceExclusions = (): Record<string, string[]> => Object.fromEntries(Object.entries(termsSchema.parse(terms).evidence).flatMap(([c, e]) => (e.exclude ? [[c, Object.keys(e.exclude)]] : [])));
/** The shipped rates and where they come from. */
export const shippedKnowledge = () => derivedSchema.parse(derived);

/** The lookup a DDXPlus source gives the build: a PATHOLOGY string → its condition's rates, or null. */
export function ddxplusKnowledge(dict: Pick<DdxplusDictionary, 'resolveCondition'>, shipped = shippedKnowledge()): DiseaseKnowledge {
  return (diagnosis) => {
    const c = dict.resolveCondition(diagnosis);
    const k = c ? shipped.conditions[c.key] : undefined;
    return k ? { source: `${k.orphanet} ${k.name} (Orphanet's HPO annotations)`, rates: k.rates } : null;
  };
}
