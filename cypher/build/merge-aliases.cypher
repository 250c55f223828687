UNWIND $rows AS r
MERGE (a:DiseaseAlias {id: r.id})
SET a.name = r.name, a.buildId = $buildId
WITH a, r
MATCH (d:Disease {id: r.diseaseId})
MERGE (a)-[e:ALIAS_OF]->(d)
SET e.buildId = $buildId
