import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * On-disk cache of LLM responses, keyed by sha256(model + prompt), so a rebuild with the
 * same inputs costs no calls. One small JSON file per entry under `<dir>/<k[0..2]>/<k>.json`;
 * writes go through a temp file + rename, so concurrent builds never read half an entry.
 * Only validated responses are stored (see structured.ts). The prompt itself is not stored:
 * prompts may contain patient text; keep the cache to build-time prompts and a private dir.
 */
export interface CachedResponse {
  model: string;
  response: string;
  createdAt: string;
}

export class ResponseCache {
  /** No I/O here: the directory is created on the first write. */
  constructor(readonly dir: string) {}

  static key(model: string, prompt: string): string {
    return createHash('sha256').update(model).update('\u0000').update(prompt).digest('hex');
  }

  private file(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** The cached response text, or null on a miss (an unreadable entry counts as a miss). */
  async get(key: string): Promise<string | null> {
    let raw: string;
    try {
      raw = await readFile(this.file(key), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    try {
      const entry = JSON.parse(raw) as Partial<CachedResponse>;
      return typeof entry.response === 'string' ? entry.response : null;
    } catch {
      return null; // a torn or foreign file: the caller just asks the model again
    }
  }

  async set(key: string, entry: { model: string; response: string }): Promise<void> {
    const file = this.file(key);
    await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
    const tmp = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
    const value: CachedResponse = { ...entry, createdAt: new Date().toISOString() };
    await writeFile(tmp, JSON.stringify(value));
    await rename(tmp, file);
  }
}
