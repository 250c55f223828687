// Live sessions of one owner and overall: a start is refused before its diagnose when either is full.
OPTIONAL MATCH (m:ConsultationSession {owner: $owner}) WHERE m.expiresAt > $now
WITH count(m) AS mine
OPTIONAL MATCH (a:ConsultationSession) WHERE a.expiresAt > $now
RETURN mine, count(a) AS total
