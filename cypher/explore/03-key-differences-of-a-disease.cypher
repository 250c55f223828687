// A disease's key differences against its siblings (the other diseases of its subcategory):
// what is frequent in this disease and rare in the siblings (MedRAG's augmented differences),
// with the feature each one is about. Graph view shows disease -> key difference -> siblings.
// Parameters:
// :param diseaseId => 'dis:...'
MATCH (d:Disease {id: $diseaseId})-[hk:HAS_KEY_DIFFERENCE]->(k:KeyDifference)
OPTIONAL MATCH (k)-[about:ABOUT]->(f:Feature)
OPTIONAL MATCH (k)-[cw:CONTRASTS_WITH]->(sibling:Disease)
RETURN d, hk, k, about, f, collect(cw) AS contrasts, collect(sibling) AS siblings,
       k.text AS difference, k.prevalenceIn AS inDisease, k.prevalenceSiblings AS inSiblings, k.source AS source
ORDER BY coalesce(k.prevalenceIn, 0) - coalesce(k.prevalenceSiblings, 0) DESC, k.id
