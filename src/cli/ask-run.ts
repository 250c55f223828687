import { readFile } from 'node:fs/promises';
import { createEmbedder } from '../adapters/embeddings/index.js';
import { GraphStore } from '../adapters/neo4j/graph-store.js';
import { loadConfig } from '../config.js';
import { InputError } from '../errors.js';
import { createLogger } from '../logger.js';
import { DEFAULT_OPTIONS, type DiagnoseOptions } from '../query/contracts.js';
import { openQueryService, textInput } from '../query/query-service.js';
import { createDecomposer, createReasoners } from '../query/served-query.js';
import { formatResult, type AskFlags } from './query-commands.js';

/** What `dxgraph ask` runs (flags, help and output format: query-commands.ts); loaded only when it runs (issue 49). */
export async function runAsk(text: string | undefined, o: AskFlags): Promise<void> {
  const query = await readQuery(text, o.file);
  const config = loadConfig();
  if (query.length > config.http.maxTextChars) throw new InputError(`text is longer than DXGRAPH_MAX_TEXT_CHARS (${config.http.maxTextChars})`, { field: 'text' });
  const logger = createLogger({ level: config.logLevel });
  const graph = new GraphStore(config.neo4j);
  await graph.connect();
  try {
    const service = await openQueryService({ graph, dataDir: config.dataDir, embedder: createEmbedder(config), reasoners: await createReasoners(config, logger), decomposer: await createDecomposer(config), ...(config.query?.recordRetrieval ? { recordRetrieval: config.query.recordRetrieval } : {}) });
    const options: Partial<DiagnoseOptions> = {
      ...(o.k !== undefined ? { topK: o.k } : {}),
      ...(o.m !== undefined ? { topM: o.m } : {}),
      ...(o.threshold !== undefined ? { matchThreshold: o.threshold } : {}),
      ...(o.followUps !== undefined ? { followUps: o.followUps } : {}),
      reasoner: o.reasoner ?? DEFAULT_OPTIONS.reasoner,
    };
    const result = await service.diagnose(textInput(query, options));
    process.stdout.write(o.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatResult(result)}\n`);
  } finally {
    await graph.close();
  }
}

async function readQuery(text: string | undefined, file: string | undefined): Promise<string> {
  const raw = file === '-' ? await readStdin() : file ? await readFile(file, 'utf8') : (text ?? '');
  if (!raw.trim()) throw new InputError('ask needs a non-empty description: dxgraph ask "<text>" (or --file PATH / --file -)', { field: 'text' });
  return raw;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
