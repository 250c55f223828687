/**
 * The classifier is saved with the build as JSON (small: 3 × (dim + 5) numbers) and checked
 * on load against a schema, so a truncated or foreign file fails with an ArtifactError naming
 * the path instead of producing nonsense scores.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { ArtifactError, errorMessage } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import { SentenceClassifier } from './sentence-classifier.js';
import { EXTRA_FEATURES, N_EXTRA } from './sentence-features.js';
import { SENTENCE_LABELS } from './types.js';

export const CLASSIFIER_FORMAT = 'dxgraph-gate-classifier/v1';

const ClassifierFile = z.object({
  format: z.literal(CLASSIFIER_FORMAT),
  embedder: z.string().min(1),
  dim: z.number().int().positive(),
  labels: z.tuple([z.literal('A'), z.literal('B'), z.literal('C')]),
  extraFeatures: z.array(z.string()),
  weights: z.array(z.array(z.number())).length(SENTENCE_LABELS.length),
  bias: z.array(z.number()).length(SENTENCE_LABELS.length),
});
export type ClassifierFile = z.infer<typeof ClassifierFile>;

export function classifierToJson(c: SentenceClassifier): ClassifierFile {
  const D = c.dim + N_EXTRA;
  return {
    format: CLASSIFIER_FORMAT,
    embedder: c.embedderId,
    dim: c.dim,
    labels: ['A', 'B', 'C'],
    extraFeatures: [...EXTRA_FEATURES],
    weights: SENTENCE_LABELS.map((_, k) => Array.from(c.weights.subarray(k * D, (k + 1) * D))),
    bias: Array.from(c.bias),
  };
}

export function classifierFromJson(json: unknown): Result<SentenceClassifier, string> {
  const parsed = ClassifierFile.safeParse(json);
  if (!parsed.success) return err(`not a gate classifier: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`.trim());
  const f = parsed.data;
  if (f.extraFeatures.join(',') !== EXTRA_FEATURES.join(',')) return err(`classifier was trained with features [${f.extraFeatures.join(', ')}], this version computes [${EXTRA_FEATURES.join(', ')}]`);
  const D = f.dim + N_EXTRA;
  if (f.weights.some((row) => row.length !== D)) return err(`classifier weight rows must have ${D} values`);
  return ok(new SentenceClassifier(f.embedder, f.dim, Float32Array.from(f.weights.flat()), Float32Array.from(f.bias)));
}

export async function saveClassifier(path: string, c: SentenceClassifier): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(classifierToJson(c)) + '\n', 'utf8');
}

/** Fails with ArtifactError when the file is missing, unreadable, or not a classifier. */
export async function loadClassifier(path: string, opts: { expectEmbedder: string | null } = { expectEmbedder: null }): Promise<Result<SentenceClassifier, ArtifactError>> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (cause) {
    return err(new ArtifactError(path, `cannot read gate classifier: ${errorMessage(cause)}`, { cause }));
  }
  const c = classifierFromJson(json);
  if (!c.ok) return err(new ArtifactError(path, c.error));
  if (opts.expectEmbedder !== null && c.value.embedderId !== opts.expectEmbedder) {
    return err(new ArtifactError(path, `gate classifier was trained on embedder ${c.value.embedderId}, the server uses ${opts.expectEmbedder}`));
  }
  return c;
}
