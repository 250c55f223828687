/**
 * Notes-KG bench (issue 24): a KG built from notes alone (training JSONL: id, condition, text,
 * age, sex), asked with held-out notes, beside TF-IDF kNN and TF-IDF nearest centroid trained
 * on the same notes. In memory (bench/lib/notes-kg-memory.ts): the KG's knowledge alone.
 *
 *   node --import tsx bench/notes-kg.ts --train datasets/vignettes/dev.jsonl,datasets/vignettes/dev-b.jsonl \
 *        --test datasets/vignettes/test.jsonl,datasets/vignettes/test-b.jsonl,datasets/vignettes/test-c.jsonl
 */
import { parseArgs } from 'node:util';
import { loadNotesSet as load, runNotesBench } from './lib/notes-kg-run.js';

const { values: a } = parseArgs({
  options: {
    train: { type: 'string', default: 'datasets/vignettes/dev.jsonl,datasets/vignettes/dev-b.jsonl' },
    test: { type: 'string', default: 'datasets/vignettes/test.jsonl,datasets/vignettes/test-b.jsonl,datasets/vignettes/test-c.jsonl' },
    k: { type: 'string', default: '5' },
    json: { type: 'string' },
    reasoner: { type: 'string' },
  },
});

const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);
const train = await Promise.all(list(a.train!).map(load));
const tests = await Promise.all(list(a.test!).map(load));
const out = await runNotesBench({ train, tests, minPatients: Number(a.k), ...(a.reasoner ? { reasoner: JSON.parse(a.reasoner) as Record<string, number> } : {}) }, (s) => process.stderr.write(`[notes-kg] ${s}\n`));
process.stdout.write(out.table);
