// Consultation sessions shared by replicas (src/sessions/neo4j-repository.ts). Idempotent.
// Content is sealed (AES-256-GCM); only ids, the owner's key digest, the build id, times and the version are readable.
CREATE CONSTRAINT consultation_session_id IF NOT EXISTS FOR (n:ConsultationSession) REQUIRE n.id IS UNIQUE;
CREATE INDEX consultation_session_owner IF NOT EXISTS FOR (n:ConsultationSession) ON (n.owner);
CREATE INDEX consultation_session_expiry IF NOT EXISTS FOR (n:ConsultationSession) ON (n.expiresAt);
CREATE CONSTRAINT session_lock_id IF NOT EXISTS FOR (n:SessionLock) REQUIRE n.id IS UNIQUE;
// CDS Hooks client JWT ids (src/cds-hooks/jti-claims.ts): one node per (issuer, jti) digest until its exp, shared by replicas.
CREATE CONSTRAINT cds_jti_key IF NOT EXISTS FOR (n:CdsJti) REQUIRE n.key IS UNIQUE;
CREATE INDEX cds_jti_exp IF NOT EXISTS FOR (n:CdsJti) ON (n.exp);
