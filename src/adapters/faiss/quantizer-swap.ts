import { createReadStream, createWriteStream, readSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { InputError } from '../../errors.js';
import { flatIndexBytes, fromBuffer, hnswFlatIndexBytes, ivfQuantizerOffset, type ByteSource } from './index-params.js';

/**
 * Saves an IVF index whose rows were added through a FLAT quantizer (vector-index.ts) as the
 * same index behind an HNSW quantizer over the same centroids, without a second copy of its
 * lists in memory. FAISS writes an IVF index as: header (ntotal included), nlist, nprobe, the
 * quantizer (a whole serialized index), the direct map, the inverted lists (index-params.ts).
 * So the file is the staging index's own bytes with its flat quantizer cut out and the HNSW
 * quantizer of `hnsw` (an empty IVF index trained on the same centroids, same nlist and nprobe)
 * put in its place. (FAISS's merge_from would move the lists into that index in memory, but the
 * emptied lists keep their capacity: at 1M records 2 GB more peak memory.)
 */
export async function writeWithHnswQuantizer(staging: { write(path: string): void }, hnsw: Buffer, outPath: string): Promise<void> {
  const stagedPath = `${outPath}.flat-quantizer`;
  try {
    staging.write(stagedPath);
    const file = await open(stagedPath, 'r');
    let head: Buffer;
    let rest: number; // where the staged index's direct map and lists start, after its flat quantizer
    try {
      const size = (await file.stat()).size;
      const read: ByteSource = (offset, length) => {
        if (offset + length > size) throw new InputError(`FAISS index data ends at byte ${size}, wanted ${offset + length}`, { field: 'index' });
        const b = Buffer.alloc(length);
        // Header fields only (a few bytes each): read synchronously through a small buffer.
        readInto(file.fd, b, offset);
        return b;
      };
      head = read(0, ivfQuantizerOffset(read));
      // Both IVF headers alike but for ntotal: same kind, dimension, metric, list count, nprobe.
      if (!sameIvfShape(head, hnsw.subarray(0, ivfQuantizerOffset(fromBuffer(hnsw))))) throw new InputError('the HNSW-quantized index has another kind, dimension, list count or nprobe than the staged one', { field: 'index' });
      rest = head.length + flatIndexBytes(read, head.length);
    } finally {
      await file.close();
    }
    const q0 = head.length;
    const quantizer = hnsw.subarray(q0, q0 + hnswFlatIndexBytes(fromBuffer(hnsw), q0));
    const out = createWriteStream(outPath);
    await pipeline(
      async function* () {
        yield head;
        yield quantizer;
        yield* createReadStream(stagedPath, { start: rest, highWaterMark: 8 << 20 });
      },
      out,
    );
  } finally {
    await rm(stagedPath, { force: true });
  }
}

function readInto(fd: number, b: Buffer, position: number): void {
  for (let got = 0; got < b.length; ) {
    const n = readSync(fd, b, got, b.length - got, position + got);
    if (n === 0) throw new InputError(`FAISS index data ends at byte ${position + got}`, { field: 'index' });
    got += n;
  }
}

/** Every byte alike but ntotal (bytes 8-15: after the fourcc and d). */
function sameIvfShape(a: Buffer, b: Buffer): boolean {
  if (a.length !== b.length) return false;
  const ntotal = [8, 16];
  return a.subarray(0, ntotal[0]).equals(b.subarray(0, ntotal[0])) && a.subarray(ntotal[1]).equals(b.subarray(ntotal[1]));
}
