// The owner's live session, its sliding expiry refreshed (capped by the absolute lifetime).
MATCH (s:ConsultationSession {id: $id})
WHERE s.owner = $owner AND s.expiresAt > $now
SET s.touchedAt = $now,
    s.expiresAt = CASE WHEN $now + $ttlMs < s.createdAt + $lifetimeMs THEN $now + $ttlMs ELSE s.createdAt + $lifetimeMs END
RETURN s.id AS id, s.owner AS owner, s.buildId AS buildId, s.createdAt AS createdAt, s.touchedAt AS touchedAt, s.version AS version, s.content AS content
