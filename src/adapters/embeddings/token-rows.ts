import { errorMessage } from '../../errors.js';
import { err, ok, type Result } from '../../result.js';

/**
 * A [vocab x dim] matrix of a safetensors file as float32, each row converted from the file's
 * bytes the first time it is read. A process embeds the words it meets: the concept forms and a
 * few requests touch a few thousand of WordLlama's 32,000 rows, and converting all 8.2M float16
 * weights at load was ~0.1 s of CPU in every process that loaded the model (docs/testing.md
 * Round 9). A row holds the values a whole conversion gives (the same table, the same bytes).
 */
export class TokenRows {
  /** Row-major float32 values; a row is valid once `offset` returned for it. */
  readonly values: Float32Array;
  /** 1 for a row still to convert. */
  private readonly pending: Uint8Array;

  constructor(
    private readonly bytes: Buffer,
    private readonly start: number,
    readonly vocab: number,
    readonly dim: number,
    private readonly dtype: 'F16' | 'F32',
  ) {
    this.values = new Float32Array(vocab * dim);
    this.pending = new Uint8Array(vocab).fill(1);
  }

  /** Where row `id` starts in `values`, converting it first if needed. */
  offset(id: number): number {
    const at = id * this.dim;
    if (this.pending[id] === 1) {
      this.pending[id] = 0;
      const { bytes, values, dim } = this;
      if (this.dtype === 'F32') {
        for (let d = 0, b = this.start + 4 * at; d < dim; d++, b += 4) values[at + d] = bytes.readFloatLE(b);
      } else {
        const table = f16Table();
        // Bytes assembled by hand: the data need not be 2-byte aligned, and this is endian-free.
        for (let d = 0, b = this.start + 2 * at; d < dim; d++, b += 2) values[at + d] = table[bytes[b]! | (bytes[b + 1]! << 8)]!;
      }
    }
    return at;
  }

  /** Every row converted: the whole matrix. */
  all(): Float32Array {
    for (let id = 0; id < this.vocab; id++) this.offset(id);
    return this.values;
  }
}

interface TensorEntry {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

/**
 * One 2-D tensor of a safetensors file: an 8-byte little-endian header length, a JSON header
 * {name: {dtype, shape, data_offsets}}, then the raw little-endian data. Small enough a format
 * to read here rather than add a package for it. F16 and F32 only. Keeps `buf` (rows convert from it).
 */
export function safetensorsRows(buf: Buffer, key: string): Result<TokenRows, string> {
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
  if (end - begin !== vocab * dim * width || 8 + headerLen + end > buf.length) {
    return err(`tensor "${key}" data (${end - begin} bytes at ${begin}) does not fit shape [${vocab}, ${dim}] ${entry.dtype} in a ${buf.length}-byte file`);
  }
  return ok(new TokenRows(buf, 8 + headerLen + begin, vocab, dim, entry.dtype as 'F16' | 'F32'));
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
