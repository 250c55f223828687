UNWIND $rows AS r
MERGE (k:KeyDifference {id: r.id})
SET k.text = r.text, k.label = r.label, k.featureId = r.featureId, k.prevalenceIn = r.prevalenceIn,
    k.prevalenceSiblings = r.prevalenceSiblings, k.source = r.source, k.buildId = $buildId
WITH k, r
MATCH (d:Disease {id: r.diseaseId})
MERGE (d)-[h:HAS_KEY_DIFFERENCE]->(k)
SET h.buildId = $buildId
WITH k, r
CALL {
  WITH k, r
  UNWIND r.contrastsWith AS otherId
  MATCH (o:Disease {id: otherId})
  MERGE (k)-[c:CONTRASTS_WITH]->(o)
  SET c.buildId = $buildId
}
WITH k, r
OPTIONAL MATCH (f:Feature {id: r.featureId})
FOREACH (x IN CASE WHEN f IS NULL THEN [] ELSE [f] END |
  MERGE (k)-[a:ABOUT]->(x)
  SET a.buildId = $buildId)
