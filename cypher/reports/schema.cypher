// LLM reports waiting for their reader (src/reports/neo4j-report-store.ts), shared by replicas. Idempotent.
// The body is sealed (AES-256-GCM); only the id, the owner's key digest, the status and the expiry are readable.
CREATE CONSTRAINT llm_report_id IF NOT EXISTS FOR (n:LlmReport) REQUIRE n.id IS UNIQUE;
CREATE INDEX llm_report_expiry IF NOT EXISTS FOR (n:LlmReport) ON (n.expiresAt);
