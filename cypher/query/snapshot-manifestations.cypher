// Every HAS_MANIFESTATION edge (disease, feature, prevalence, count), for the in-memory snapshot.
MATCH (d:Disease)-[m:HAS_MANIFESTATION]->(f:Feature)
RETURN d.id AS diseaseId, f.id AS featureId, m.prevalence AS prevalence, coalesce(m.count, 0) AS count, coalesce(m.source, 'ehr') AS source
