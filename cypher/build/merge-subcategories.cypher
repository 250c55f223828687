UNWIND $rows AS r
MERGE (s:Subcategory {id: r.id})
SET s.name = r.name, s.categoryId = r.categoryId, s.buildId = $buildId
WITH s, r
MATCH (c:Category {id: r.categoryId})
MERGE (s)-[e:IS_A]->(c)
SET e.buildId = $buildId
