// End one live session of its owner.
MATCH (s:ConsultationSession {id: $id})
WHERE s.owner = $owner AND s.expiresAt > $now
DELETE s
RETURN count(*) AS deleted
