// Optional (--records-in-graph): training records as nodes, for exploration.
// Parameters (kg-build/load-neo4j.ts recordBatch): $featureIds / $diseaseIds are the batch's
// distinct ids, each looked up once; a row refers to them by position (r.f, r.d), so a
// relationship costs no index seek (a locking seek per edge was half the load's time).
// A record whose buildId is already this build's was written whole by an earlier, committed
// batch (a node and its edges share one transaction): skipped, so a rerun finishes a load.
// Any other record gets its edges replaced: an older build's deleted, the new ones CREATEd.
// Record edges carry no buildId: they belong to their record, and a stale record's sweep
// (DETACH DELETE) takes them with it.
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
WITH r, features, diseases[toInteger(r.d)][0] AS d
WHERE d IS NOT NULL
MERGE (x:Record {id: r.id})
WITH x, r, d, features
WHERE x.buildId IS NULL OR x.buildId <> $buildId
CALL {
  WITH x
  OPTIONAL MATCH (x)-[old:DIAGNOSED_AS|HAS_FEATURE]->()
  DELETE old
}
SET x.diagnosis = r.diagnosis, x.buildId = $buildId
CREATE (x)-[:DIAGNOSED_AS]->(d)
WITH x, r, features
UNWIND r.f AS i
WITH x, features[toInteger(i)][0] AS f
WHERE f IS NOT NULL
CREATE (x)-[:HAS_FEATURE]->(f)
