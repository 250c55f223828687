import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tokenizer } from '@huggingface/tokenizers';
import { ArtifactError, errorMessage } from '../../errors.js';
import { err, ok, type Result } from '../../result.js';
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
  /** Row-major [vocab x dim] float32 token vectors. */
  matrix: Float32Array;
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
  const matrix = parseSafetensorsMatrix(weights, TENSOR_KEY);
  if (!matrix.ok) return err(new ArtifactError(weightsPath, `WordLlama weights ${weightsPath}: ${matrix.error}; ${missingHint}`));
  let tokenizer: WordLlamaTokenizer;
  try {
    const json = JSON.parse(tokenizerText.toString('utf8')) as object;
    tokenizer = wordLlamaTokenizerOf(json);
  } catch (e) {
    return err(new ArtifactError(tokenizerPath, `WordLlama tokenizer ${tokenizerPath} is not a valid tokenizer.json (${errorMessage(e)}); ${missingHint}`, { cause: e }));
  }
  return ok({ ...matrix.value, tokenizer });
}

/** The model's tokenizer from its parsed tokenizer.json (throws on a tokenizer tokenizers.js cannot build). */
export function wordLlamaTokenizerOf(json: object): WordLlamaTokenizer {
  return new WordLlamaTokenizer(new Tokenizer(json, {}), json);
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

interface TensorEntry {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

/**
 * One 2-D tensor of a safetensors file as float32: an 8-byte little-endian header length, a
 * JSON header {name: {dtype, shape, data_offsets}}, then the raw little-endian data. Small
 * enough a format to read here rather than add a package for it. F16 and F32 only.
 */
export function parseSafetensorsMatrix(buf: Buffer, key: string): Result<{ matrix: Float32Array; vocab: number; dim: number }, string> {
  if (buf.length < 8) return err('file too short for a safetensors header');
  const headerLen = Number(buf.readBigUInt64LE(0));
  if (headerLen <= 0 || 8 + headerLen > buf.length) return err(`bad safetensors header length ${headerLen}`);
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(buf.subarray(8, 8 + headerLen).toString('utf8')) as Record<string, unknown>;
  } catch (e) {
    return err(`safetensors header is not JSON (${errorMessage(e)})`);
  }
  const entry = header[key] as TensorEntry | undefined;
  if (!entry || !Array.isArray(entry.shape) || !Array.isArray(entry.data_offsets)) return err(`no tensor "${key}"`);
  if (entry.shape.length !== 2) return err(`tensor "${key}" has shape [${entry.shape.join(', ')}], expected 2-D`);
  const [vocab, dim] = entry.shape as [number, number];
  const width = entry.dtype === 'F16' ? 2 : entry.dtype === 'F32' ? 4 : 0;
  if (width === 0) return err(`tensor "${key}" has dtype ${entry.dtype}, expected F16 or F32`);
  const [begin, end] = entry.data_offsets;
  const start = 8 + headerLen + begin;
  if (end - begin !== vocab * dim * width || 8 + headerLen + end > buf.length) {
    return err(`tensor "${key}" data (${end - begin} bytes at ${begin}) does not fit shape [${vocab}, ${dim}] ${entry.dtype} in a ${buf.length}-byte file`);
  }
  const n = vocab * dim;
  const matrix = new Float32Array(n);
  if (width === 4) {
    for (let i = 0; i < n; i++) matrix[i] = buf.readFloatLE(start + 4 * i);
  } else {
    const table = f16Table();
    // Bytes assembled by hand: the data need not be 2-byte aligned, and this is endian-free.
    for (let i = 0, at = start; i < n; i++, at += 2) matrix[i] = table[buf[at]! | (buf[at + 1]! << 8)]!;
  }
  return ok({ matrix, vocab, dim });
}

let F16: Float32Array | null = null;

/** All 65536 IEEE half-precision values as float32 (exact), built once: a table lookup per weight. */
function f16Table(): Float32Array {
  if (F16) return F16;
  F16 = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exp = (h >> 10) & 0x1f;
    const frac = h & 0x3ff;
    F16[h] =
      exp === 0 ? sign * frac * 2 ** -24 : exp === 31 ? (frac ? NaN : sign * Infinity) : sign * (1 + frac / 1024) * 2 ** (exp - 15);
  }
  return F16;
}
