/**
 * A complaint the question set asks in the context of another (implied-in-context.json): told
 * beside intense coughing fits, "sometimes I throw up" is vomiting after coughing and "a squeaky
 * noise as the air gets in" the whoop, though the clause names no cough. Read per finding, those
 * words reach only the plain questions (vomiting, stridor), which point away from pertussis. The
 * implied question is added as an alternative of the finding's own reading (one observation, as
 * equivalent-encodings.ts joins a complaint coded two ways), only when the text reads the context
 * as present. The rules are data; a rule whose codes the KG lacks does nothing.
 */
import { z } from 'zod';
import shipped from './implied-in-context.json' with { type: 'json' };
import { codeKey, type ConceptSet } from './concept-set.js';
import type { ConceptMatch } from './resolve-features.js';

const fileSchema = z.strictObject({
  version: z.literal(1),
  provenance: z.string().trim().min(1),
  rules: z.array(z.strictObject({ when: z.string().min(1), reads: z.array(z.string().min(1)).min(1), also: z.string().min(1), beside: z.string().min(1), why: z.string().min(1) })).min(1),
});
export type ImpliedRules = z.infer<typeof fileSchema>['rules'];

let rules: ImpliedRules | null = null;
/** The shipped rules, validated at first use; a broken file is a bug of the release, so it throws. */
const shippedRules = (): ImpliedRules => (rules ??= fileSchema.parse(shipped).rules);

/** Adds, in place, each rule's implied question to the findings whose present reading it names. */
export function addImpliedInContext(snapshot: ConceptSet, found: Map<number, ConceptMatch[]>, ruleSet: ImpliedRules = shippedRules()): void {
  const yesFeature = (code: string) => snapshot.featureByCode.get(codeKey(code, null));
  const present = new Set<number>();
  for (const hits of found.values()) for (const h of hits) if (h.polarity === 'present') present.add(h.feature);
  for (const rule of ruleSet) {
    const context = yesFeature(rule.when);
    const also = yesFeature(rule.also);
    if (context === undefined || also === undefined || !present.has(context)) continue;
    const reads = new Set(rule.reads.map(yesFeature).filter((f): f is number => f !== undefined));
    for (const hits of found.values()) {
      if (hits.some((h) => h.feature === also)) continue;
      const source = hits.find((h) => h.polarity === 'present' && reads.has(h.feature));
      if (!source) continue;
      hits.push({ ...source, feature: also, via: `${source.via}, beside ${rule.beside}` });
    }
  }
}
