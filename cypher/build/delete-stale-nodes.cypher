// Run in a loop until it deletes 0: nodes written by another (older) build.
MATCH (n)
WHERE (n:Category OR n:Subcategory OR n:Disease OR n:DiseaseAlias OR n:Feature OR n:KeyDifference OR n:Record)
  AND n.buildId <> $buildId
WITH n LIMIT toInteger($limit)
DETACH DELETE n
RETURN count(*) AS deleted
