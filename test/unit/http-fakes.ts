/**
 * Deterministic fakes for the HTTP unit tests: a query service whose answer is computed
 * from its input (so a test can see the request was mapped, not just echoed), a KG
 * reader with one subcategory, a log sink that captures every line, and a helper that
 * starts the real app on port 0.
 */
import { Writable } from 'node:stream';
import { createApp, type AppDeps } from '../../src/http/app.js';
import { listen, type RunningServer } from '../../src/http/listen.js';
import { createLogger } from '../../src/logger.js';
import type { DiagnoseInput, DiagnoseResult } from '../../src/query/contracts.js';
import type { Differences, DiseaseItem, KgSummary, Readiness } from '../../src/http/schemas.js';

export function fakeResult(input: DiagnoseInput): DiagnoseResult {
  const n = input.findings.length + (input.text ? 1 : 0);
  const findings = input.text ? [{ text: 'finding', polarity: 'present' as const, code: null, valueCode: null }, ...input.findings] : input.findings;
  return {
    differential: [
      { diseaseId: 'dis:a', disease: 'Disease A', subcategory: 'Sub 1', category: 'Cat 1', score: n / (n + 1), evidence: [`${n} findings`] },
      { diseaseId: 'dis:b', disease: 'Disease B', subcategory: 'Sub 1', category: 'Cat 1', score: 1 / (n + 1), evidence: [] },
    ],
    followUps: [{ id: 'q1', featureId: 'feat:1', text: 'Any fever?', score: 2, ranker: 'sigma' }],
    report: null,
    degraded: false,
    reasoner: input.options.reasoner === 'llm' ? 'llm' : 'evidence',
    probability: null,
    model: null,
    insufficient: null,
    trace: {
      gate: null,
      decomposition: { method: 'rules', fallback: null, age: null, sex: null },
      findings,
      matches: [],
      votes: [{ subcategoryId: 'sub:1', name: 'Sub 1', votes: n }],
      chosenSubcategory: { subcategoryId: 'sub:1', name: 'Sub 1', votes: n },
      differencesKg: [{ subject: 'Disease A', relation: 'HAS_MANIFESTATION', object: 'fever', subjectId: 'dis:a', objectId: 'feat:1', weight: 0.5 }],
      retrieved: [],
      timingsMs: { total: 1 },
    },
  };
}

export const SUMMARY: KgSummary = {
  counts: { categories: 1, subcategories: 1, diseases: 2, features: 3, ehrFeatures: 3, augmentedFeatures: 0, keyDifferences: 1, records: 10 },
  build: { id: 'b1', source: 'test', embedder: 'hashed', embeddingDim: 8, status: 'complete', startedAt: '2025-01-01T00:00:00Z', finishedAt: null },
};
export const DISEASES: DiseaseItem[] = [
  { id: 'dis:a', name: 'Disease A', icd10: null, recordCount: 5, subcategoryId: 'sub:1', subcategory: 'Sub 1', categoryId: 'cat:1', category: 'Cat 1' },
];
export const DIFFERENCES: Differences = {
  subcategory: { id: 'sub:1', name: 'Sub 1', categoryId: 'cat:1', category: 'Cat 1' },
  diseases: [{ id: 'dis:a', name: 'Disease A' }],
  triples: [{ subject: 'Disease A', relation: 'HAS_MANIFESTATION', object: 'fever', subjectId: 'dis:a', objectId: 'feat:1', weight: 0.5 }],
};

export interface Harness {
  url: string;
  logs: string[];
  calls: DiagnoseInput[];
  close(): Promise<void>;
}

export async function startFakeApp(opts: Partial<AppDeps> & { maxTextChars?: number; dropDemographics?: boolean } = {}): Promise<Harness> {
  const { maxTextChars, dropDemographics, ...over } = opts;
  const logs: string[] = [];
  const calls: DiagnoseInput[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const ready: Readiness = { neo4j: true, indexes: true };
  const deps: AppDeps = {
    query: {
      diagnose: async (input) => {
        calls.push(input);
        return fakeResult(input);
      },
    },
    kg: { summary: async () => SUMMARY, diseases: async () => DISEASES, differences: async (id) => (id === 'sub:1' ? DIFFERENCES : null) },
    readiness: async () => ready,
    config: {
      http: { host: '127.0.0.1', port: 0, apiKeys: [], apiKeyFile: null, maxTextChars: maxTextChars ?? 2000 },
      privacy: { dropDemographics: dropDemographics ?? false },
    },
    apiKeys: [],
    logger: createLogger({ level: 'info', destination: sink }),
    ...over,
  };
  const running: RunningServer = await listen(createApp(deps), { host: '127.0.0.1', port: 0 });
  // Teardown, not the graceful stop under test (http-shutdown.test.ts): the test's fetch client
  // leaves its kept-alive sockets idle, and the default 1 s linger for a last request on them
  // cost every harness a second of waiting (issue 49).
  return { url: running.url, logs, calls, close: () => running.close({ lingerMs: 0 }) };
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: any; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, json, text };
}

/** A response body that looks like it carries a stack trace. */
export const STACK_LIKE = /\n\s+at\s|\.ts:\d+|node_modules|Error:\s/;
