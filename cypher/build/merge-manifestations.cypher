UNWIND $rows AS r
MATCH (d:Disease {id: r.diseaseId})
MATCH (f:Feature {id: r.featureId})
MERGE (d)-[m:HAS_MANIFESTATION]->(f)
SET m.prevalence = r.prevalence, m.count = toInteger(r.count), m.source = r.source, m.buildId = $buildId
