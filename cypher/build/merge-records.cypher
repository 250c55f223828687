// Optional (--records-in-graph): training records as nodes, for exploration.
UNWIND $rows AS r
MERGE (x:Record {id: r.id})
SET x.diagnosis = r.diagnosis, x.buildId = $buildId
WITH x, r
MATCH (d:Disease {id: r.diseaseId})
MERGE (x)-[e:DIAGNOSED_AS]->(d)
SET e.buildId = $buildId
WITH x, r
CALL {
  WITH x, r
  UNWIND r.featureIds AS fid
  MATCH (f:Feature {id: fid})
  MERGE (x)-[e:HAS_FEATURE]->(f)
  SET e.buildId = $buildId
}
