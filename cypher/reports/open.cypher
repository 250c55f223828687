// A pending report, if the store is under its capacity (src/reports/neo4j-report-store.ts).
// The one lock node serialises opens from every replica, so the count cannot pass for one too many.
MERGE (l:SessionLock {id: 'llm-reports'})
SET l.lockedAt = $now
WITH l
OPTIONAL MATCH (r:LlmReport) WHERE r.expiresAt > $now
WITH count(r) AS total
FOREACH (_ IN CASE WHEN total < $maxReports THEN [1] ELSE [] END |
  CREATE (:LlmReport {id: $id, owner: $owner, status: 'pending', createdAt: $now, expiresAt: $expiresAt}))
RETURN total < $maxReports AS opened
