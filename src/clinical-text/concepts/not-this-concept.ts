/**
 * Longer phrases that are not the shorter word inside them (issue 47): "jugular venous distension"
 * is no abdominal distension, "ST depression" no history of depression, "cavitary lesion" no skin
 * lesion, "pacing" no premature atrial contractions. A mention of a concept that lies inside such
 * a phrase, and is not the phrase itself, is dropped; a phrase that names another concept is read
 * by that concept's own forms (a phenotype vocabulary's, src/vocabularies/phenotype-forms.json).
 * A finding holding such a phrase, or a lone body part a template lists, is never read by the
 * embedding fallback, whose nearest form is most often the shorter word's concept. The phrases
 * are data (not-this-concept.json); words are compared as written, lower case, stopwords skipped.
 */
import { z } from 'zod';
import shipped from './not-this-concept.json' with { type: 'json' };
import { contentTokens, tokenize, type Token } from './normalize.js';

const fileSchema = z.strictObject({
  version: z.literal(1),
  provenance: z.string().trim().min(1),
  phrases: z.array(z.strictObject({ phrases: z.array(z.string().min(1)).min(1), names: z.string().min(1).nullable(), not: z.string().min(1) })).min(1),
  alone: z.array(z.string().min(1)),
});

interface Compiled {
  /** First word → the phrases (as content words) starting with it, longest first. */
  byFirst: Map<string, string[][]>;
  alone: Set<string>;
}

const words = (phrase: string): string[] => contentTokens(tokenize(phrase)).map((t) => t.token.norm);

export function compileNotThisConcept(raw: unknown): Compiled {
  const file = fileSchema.parse(raw);
  const byFirst = new Map<string, string[][]>();
  for (const entry of file.phrases) {
    for (const p of entry.phrases) {
      const w = words(p);
      if (w.length === 0) continue;
      byFirst.set(w[0]!, [...(byFirst.get(w[0]!) ?? []), w].sort((a, b) => b.length - a.length));
    }
  }
  return { byFirst, alone: new Set(file.alone.map((a) => words(a).join(' '))) };
}

let compiled: Compiled | null = null;
/** The shipped file, validated at first use; a broken file is a bug of the release, so it throws. */
const shippedPhrases = (): Compiled => (compiled ??= compileNotThisConcept(shipped));

/** Where such phrases sit in a finding: each as the positions (in the full token list) of its words. */
export function notThisConceptSpans(tokens: readonly Token[], rules: Compiled = shippedPhrases()): number[][] {
  const content = contentTokens(tokens);
  const out: number[][] = [];
  for (let i = 0; i < content.length; i++) {
    for (const phrase of rules.byFirst.get(content[i]!.token.norm) ?? []) {
      if (i + phrase.length > content.length || !phrase.every((w, k) => content[i + k]!.token.norm === w)) continue;
      out.push(phrase.map((_, k) => content[i + k]!.at));
      break;
    }
  }
  return out;
}

/**
 * Mentions (anything with the token positions it covers and the form it matched) without those
 * inside a longer phrase that is not theirs: a mention is kept when its own form is the phrase.
 */
export function withoutNotThisConcept<M extends { at: number[]; entry: { form: string } }>(tokens: readonly Token[], mentions: M[], rules: Compiled = shippedPhrases()): M[] {
  if (mentions.length === 0) return mentions;
  const spans = notThisConceptSpans(tokens, rules);
  if (spans.length === 0) return mentions;
  return mentions.filter((m) => !spans.some((span) => m.at.every((p) => span.includes(p)) && words(m.entry.form).join(' ') !== span.map((p) => tokens[p]!.norm).join(' ')));
}

/** True when the embedding fallback must not read the finding: it holds such a phrase, or is a lone body part. */
export function notForEmbedding(text: string, rules: Compiled = shippedPhrases()): boolean {
  const tokens = tokenize(text);
  return rules.alone.has(contentTokens(tokens).map((t) => t.token.norm).join(' ')) || notThisConceptSpans(tokens, rules).length > 0;
}
