// Expired reports are deleted, content and all, in bounded batches.
MATCH (r:LlmReport) WHERE r.expiresAt <= $now
WITH r LIMIT toInteger($limit)
DELETE r
RETURN count(*) AS deleted
