// Expired sessions are deleted, content and all, in bounded batches (run until it deletes fewer than $limit).
MATCH (s:ConsultationSession)
WHERE s.expiresAt <= $now
WITH s LIMIT toInteger($limit)
DELETE s
RETURN count(*) AS deleted
