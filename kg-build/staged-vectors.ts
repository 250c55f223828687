import { createWriteStream, type WriteStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { once } from 'node:events';

/**
 * Record vectors staged on disk during the index stage's one pass over the spool
 * (build-indexes.ts), for an index that must train before its first add (IVF): row-major
 * float32 in a temporary file, the ids in memory in row order. The training sample is read
 * back from it, then every row, in large batches. On disk rather than in memory: at 1M
 * 512-d records the vectors are 2 GB, as much as the index they go into.
 */
export class StagedVectors {
  private readonly ids: string[] = [];
  private readonly out: WriteStream;
  private failed: unknown = null;
  private closed = false;
  private dim = 0;

  constructor(readonly path: string) {
    this.out = createWriteStream(path);
    // Kept and thrown by the next write / close: an unheard 'error' event would end the process.
    this.out.on('error', (e) => (this.failed ??= e));
  }

  get size(): number {
    return this.ids.length;
  }

  async write(ids: readonly string[], vectors: readonly Float32Array[]): Promise<void> {
    this.check();
    if (ids.length !== vectors.length) throw new RangeError(`${ids.length} ids for ${vectors.length} vectors`);
    if (vectors.length === 0) return;
    this.dim ||= vectors[0]!.length;
    const block = new Float32Array(vectors.length * this.dim);
    vectors.forEach((v, i) => {
      if (v.length !== this.dim) throw new RangeError(`vector of length ${v.length}, staged ones have ${this.dim}`);
      block.set(v, i * this.dim);
    });
    for (const id of ids) this.ids.push(id);
    if (!this.out.write(Buffer.from(block.buffer))) await once(this.out, 'drain');
    this.check();
  }

  /** Ends the file: call before reading it back. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.out.end();
    if (!this.out.closed) await once(this.out, 'close');
    this.check();
  }

  /** Copies of the given rows (ascending), in that order: one sequential read of the file. */
  async rowsAt(rows: readonly number[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    let next = 0;
    for await (const chunk of this.blocks(65_536)) {
      const end = chunk.start + chunk.rows;
      for (; next < rows.length && rows[next]! < end; next++) {
        const r = rows[next]! - chunk.start;
        if (r < 0) throw new RangeError(`rows must ascend (row ${rows[next]} after ${chunk.start})`);
        out.push(chunk.data.slice(r * this.dim, (r + 1) * this.dim));
      }
    }
    if (next < rows.length) throw new RangeError(`row ${rows[next]} is past the ${this.size} staged rows`);
    return out;
  }

  /** Every row in order, `size` rows at a time (the last batch shorter). */
  async *chunks(size: number): AsyncGenerator<{ ids: string[]; vectors: Float32Array[] }> {
    for await (const chunk of this.blocks(size)) {
      const vectors = Array.from({ length: chunk.rows }, (_, i) => chunk.data.subarray(i * this.dim, (i + 1) * this.dim));
      yield { ids: this.ids.slice(chunk.start, chunk.start + chunk.rows), vectors };
    }
  }

  private async *blocks(size: number): AsyncGenerator<{ start: number; rows: number; data: Float32Array }> {
    if (!this.closed) throw new Error('staged vectors read before close()');
    const file = await open(this.path, 'r');
    try {
      for (let start = 0; start < this.size; start += size) {
        const rows = Math.min(size, this.size - start);
        const data = new Float32Array(rows * this.dim);
        const bytes = new Uint8Array(data.buffer);
        for (let got = 0; got < bytes.length; ) {
          const { bytesRead } = await file.read(bytes, got, bytes.length - got, start * this.dim * 4 + got);
          if (bytesRead === 0) throw new Error(`${this.path} ends at byte ${start * this.dim * 4 + got}, ${this.size} rows were staged`);
          got += bytesRead;
        }
        yield { start, rows, data };
      }
    } finally {
      await file.close();
    }
  }

  /** Deletes the file (after a failure too). */
  async remove(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.out.destroy();
    }
    await rm(this.path, { force: true });
  }

  private check(): void {
    if (this.failed !== null) throw this.failed;
  }
}

/** `sample` row numbers evenly strided over `n` rows (input order often follows the diagnosis, so a prefix would be biased). */
export function stridedRows(n: number, sample: number): number[] {
  return Array.from({ length: sample }, (_, i) => Math.floor((i * n) / sample));
}
