// Expired CDS jti claims, a batch at a time (src/cds-hooks/jti-claims.ts).
MATCH (j:CdsJti) WHERE j.exp < $now
WITH j LIMIT toInteger($limit)
DELETE j
RETURN count(*) AS deleted
