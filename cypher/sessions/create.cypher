// Create a session if its owner is under the quota and the store under its capacity.
// Every create first write-locks the one SessionLock node, so creates from all replicas are
// serialised and the two counts below cannot both pass for one place too many.
MERGE (l:SessionLock {id: 'consultation-sessions'})
SET l.lockedAt = $now
WITH l
OPTIONAL MATCH (m:ConsultationSession {owner: $owner}) WHERE m.expiresAt > $now
WITH count(m) AS mine
OPTIONAL MATCH (a:ConsultationSession) WHERE a.expiresAt > $now
WITH mine, count(a) AS total
FOREACH (_ IN CASE WHEN mine < $maxPerOwner AND total < $maxSessions THEN [1] ELSE [] END |
  CREATE (:ConsultationSession {id: $id, owner: $owner, buildId: $buildId, createdAt: $now, touchedAt: $now, expiresAt: $expiresAt, version: 1, content: $content}))
RETURN mine, total
