// Optimistic write: replace the content only if the session is still at $version.
// SET _lock first takes the node's write lock, so `was` is read after any concurrent writer
// committed (Neo4j's documented read-after-lock pattern); of two replicas writing the same
// turn, the second sees the first's version and writes nothing.
MATCH (s:ConsultationSession {id: $id})
WHERE s.owner = $owner AND s.expiresAt > $now
SET s._lock = true
WITH s, s.version AS was
WITH s, was, was = $version AS fresh
SET s.content = CASE WHEN fresh THEN $content ELSE s.content END,
    s.version = CASE WHEN fresh THEN was + 1 ELSE was END,
    s.touchedAt = CASE WHEN fresh THEN $now ELSE s.touchedAt END,
    s.expiresAt = CASE WHEN NOT fresh THEN s.expiresAt WHEN $now + $ttlMs < s.createdAt + $lifetimeMs THEN $now + $ttlMs ELSE s.createdAt + $lifetimeMs END
REMOVE s._lock
RETURN was, fresh, s.createdAt AS createdAt, s.buildId AS buildId
