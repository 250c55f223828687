// Claims a CDS client JWT's jti until its exp (src/cds-hooks/jti-claims.ts). The uniqueness constraint on :CdsJti(key)
// serialises two replicas claiming the same key at once: one creates it, the other matches it and sees another claim.
// An expired claim is taken over (the token itself is expired by then; a new token reusing the jti is a new claim).
MERGE (j:CdsJti {key: $key})
ON CREATE SET j.exp = $exp, j.claim = $nonce
ON MATCH SET j.claim = CASE WHEN j.exp < $now THEN $nonce ELSE j.claim END,
             j.exp = CASE WHEN j.exp < $now THEN $exp ELSE j.exp END
RETURN j.claim = $nonce AS claimed
