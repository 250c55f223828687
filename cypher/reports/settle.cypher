// The LLM's answer (sealed) for a live report of this owner; an expired one stays gone.
MATCH (r:LlmReport {id: $id, owner: $owner}) WHERE r.expiresAt > $now
SET r.status = $status, r.content = $content
RETURN r.id AS id
