import type { GraphStore } from '../adapters/neo4j/graph-store.js';
import type { ReportsConfig } from '../config.js';
import type { DiagnoseService } from '../http/ports.js';
import type { Logger } from '../logger.js';
import type { SessionKey } from '../sessions/sealed-content.js';
import { LlmReports } from './llm-reports.js';
import { MemoryReportStore } from './memory-report-store.js';
import { Neo4jReportStore } from './neo4j-report-store.js';

/** Reports live where sessions live: in this process, or in Neo4j (sealed under the session key) for every replica. */
export type ReportStoreKind = { kind: 'memory' } | { kind: 'neo4j'; graph: Pick<GraphStore, 'read' | 'write' | 'writeAll'>; key: SessionKey };

export async function openReports(o: { store: ReportStoreKind; query: Pick<DiagnoseService, 'diagnose'>; settings: ReportsConfig; logger?: Logger }): Promise<LlmReports> {
  const bounds = { ttlMs: o.settings.ttlMs, maxReports: o.settings.maxReports };
  const store = o.store.kind === 'neo4j' ? await Neo4jReportStore.open({ ...bounds, graph: o.store.graph, key: o.store.key, ...(o.logger ? { logger: o.logger } : {}) }) : new MemoryReportStore(bounds);
  return new LlmReports({ store, query: o.query, maxRunning: o.settings.maxRunning, ...(o.logger ? { logger: o.logger } : {}) });
}
