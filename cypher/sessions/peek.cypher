// The owner's live session, read only (an answer turn's save refreshes the expiry).
MATCH (s:ConsultationSession {id: $id})
WHERE s.owner = $owner AND s.expiresAt > $now
RETURN s.id AS id, s.owner AS owner, s.buildId AS buildId, s.createdAt AS createdAt, s.touchedAt AS touchedAt, s.version AS version, s.content AS content
