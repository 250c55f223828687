// L3 -> L4 edges. Parameters (kg-build/load-neo4j.ts manifestationBatch): the batch's
// distinct disease / feature ids once, looked up once each; rows point at them by position
// (r.d, r.f) instead of two locking index seeks per row (~30% of this step's time).
CALL {
  UNWIND range(0, size($featureIds) - 1) AS i
  OPTIONAL MATCH (f:Feature {id: $featureIds[i]})
  WITH i, f ORDER BY i
  RETURN collect([f]) AS features
}
CALL {
  UNWIND range(0, size($diseaseIds) - 1) AS i
  OPTIONAL MATCH (d:Disease {id: $diseaseIds[i]})
  WITH i, d ORDER BY i
  RETURN collect([d]) AS diseases
}
UNWIND $rows AS r
WITH r, diseases[toInteger(r.d)][0] AS d, features[toInteger(r.f)][0] AS f
WHERE d IS NOT NULL AND f IS NOT NULL
MERGE (d)-[m:HAS_MANIFESTATION]->(f)
SET m.prevalence = r.prevalence, m.count = toInteger(r.count), m.source = r.source, m.buildId = $buildId
