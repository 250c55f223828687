// (:Disease)-[:NOTES_MENTION {count}]->(:Feature) for diseases whose records are partly notes
// (issue 24): how many of the disease's records with notes (Disease.notedRecords) state the
// feature. Parameters shaped as merge-manifestations' (kg-build/load-neo4j.ts edgeBatch).
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
MERGE (d)-[m:NOTES_MENTION]->(f)
SET m.count = toInteger(r.count), m.buildId = $buildId
