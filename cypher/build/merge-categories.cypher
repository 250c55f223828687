UNWIND $rows AS r
MERGE (c:Category {id: r.id})
SET c.name = r.name, c.buildId = $buildId
