// Every HAS_MANIFESTATION edge (disease, feature, prevalence, count), for the in-memory snapshot.
// In id order, like every snapshot query: the answer must not depend on Neo4j's plan.
MATCH (d:Disease)-[m:HAS_MANIFESTATION]->(f:Feature)
RETURN d.id AS diseaseId, f.id AS featureId, m.prevalence AS prevalence, coalesce(m.count, 0) AS count, coalesce(m.source, 'ehr') AS source
ORDER BY diseaseId, featureId
