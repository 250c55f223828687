import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ArtifactError, errorMessage } from '../../errors.js';
import { err, ok, type Result } from '../../result.js';
import { safetensorsRows, type TokenRows } from './token-rows.js';
import { WordLlamaTokenizer } from './wordllama-tokenize.js';

/**
 * The files of a WordLlama model as scripts/fetch-wordllama.sh installs them (from the PyPI
 * wheel `wordllama` 0.4.0.post1): `l2_supercat_256.safetensors` (one float16 matrix,
 * `embedding.weight`, 32000 Llama-2 tokens x 256 dims) and `tokenizer.json` (the Llama-2
 * SentencePiece-BPE tokenizer in Hugging Face format). Loading reads both once; nothing is
 * fetched here, so a missing directory is an ArtifactError naming the setup step.
 */
export const DEFAULT_WORDLLAMA_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '.models', 'wordllama');
export const WORDLLAMA_WEIGHTS_FILE = 'l2_supercat_256.safetensors';
export const WORDLLAMA_TOKENIZER_FILE = 'tokenizer.json';
const TENSOR_KEY = 'embedding.weight';

export interface WordLlamaModel {
  /** The [vocab x dim] token vectors, each row converted to float32 on first use. */
  rows: TokenRows;
  vocab: number;
  dim: number;
  tokenizer: WordLlamaTokenizer;
}

const missingHint = 'run `npm run setup` (or `bash scripts/fetch-wordllama.sh`) to install it, or use DXGRAPH_EMBEDDER=hashed';

export async function loadWordLlamaModel(dir: string): Promise<Result<WordLlamaModel, ArtifactError>> {
  const files = [join(dir, WORDLLAMA_WEIGHTS_FILE), join(dir, WORDLLAMA_TOKENIZER_FILE)] as const;
  const read = async (path: string) => attempt(path, () => readFile(path));
  const weights = await read(files[0]);
  if (!weights.ok) return weights;
  const tokenizer = await read(files[1]);
  if (!tokenizer.ok) return tokenizer;
  return parseModel(files, weights.value, tokenizer.value);
}

/**
 * The same, reading synchronously: for start-up paths that construct their embedder
 * synchronously (createEmbedder); 18 MB read once, about as fast as the async read.
 */
export function loadWordLlamaModelSync(dir: string): Result<WordLlamaModel, ArtifactError> {
  const files = [join(dir, WORDLLAMA_WEIGHTS_FILE), join(dir, WORDLLAMA_TOKENIZER_FILE)] as const;
  const weights = attemptSync(files[0], () => readFileSync(files[0]));
  if (!weights.ok) return weights;
  const tokenizer = attemptSync(files[1], () => readFileSync(files[1]));
  if (!tokenizer.ok) return tokenizer;
  return parseModel(files, weights.value, tokenizer.value);
}

function parseModel(files: readonly [string, string], weights: Buffer, tokenizerText: Buffer): Result<WordLlamaModel, ArtifactError> {
  const [weightsPath, tokenizerPath] = files;
  const rows = safetensorsRows(weights, TENSOR_KEY);
  if (!rows.ok) return err(new ArtifactError(weightsPath, `WordLlama weights ${weightsPath}: ${rows.error}; ${missingHint}`));
  let tokenizer: WordLlamaTokenizer;
  try {
    const json = JSON.parse(tokenizerText.toString('utf8')) as object;
    tokenizer = wordLlamaTokenizerOf(json);
  } catch (e) {
    return err(new ArtifactError(tokenizerPath, `WordLlama tokenizer ${tokenizerPath} is not a valid tokenizer.json (${errorMessage(e)}); ${missingHint}`, { cause: e }));
  }
  return ok({ rows: rows.value, vocab: rows.value.vocab, dim: rows.value.dim, tokenizer });
}

/** The model's tokenizer from its parsed tokenizer.json (throws on a tokenizer it cannot build). */
export function wordLlamaTokenizerOf(json: object): WordLlamaTokenizer {
  return new WordLlamaTokenizer(json);
}

function unreadable(path: string, e: unknown): ArtifactError {
  const what = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'is missing' : `cannot be read (${errorMessage(e)})`;
  return new ArtifactError(path, `WordLlama model file ${path} ${what}; ${missingHint}`, { cause: e });
}

async function attempt(path: string, read: () => Promise<Buffer>): Promise<Result<Buffer, ArtifactError>> {
  try {
    return ok(await read());
  } catch (e) {
    return err(unreadable(path, e));
  }
}

function attemptSync(path: string, read: () => Buffer): Result<Buffer, ArtifactError> {
  try {
    return ok(read());
  } catch (e) {
    return err(unreadable(path, e));
  }
}

/** One 2-D tensor of a safetensors file as float32, every row converted (token-rows.ts reads the format). */
export function parseSafetensorsMatrix(buf: Buffer, key: string): Result<{ matrix: Float32Array; vocab: number; dim: number }, string> {
  const rows = safetensorsRows(buf, key);
  return rows.ok ? ok({ matrix: rows.value.all(), vocab: rows.value.vocab, dim: rows.value.dim }) : rows;
}
