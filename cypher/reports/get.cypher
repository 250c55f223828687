// The owner's live report: another owner's id reads like a missing one.
MATCH (r:LlmReport {id: $id, owner: $owner}) WHERE r.expiresAt > $now
RETURN r.status AS status, r.content AS content, r.expiresAt AS expiresAt
