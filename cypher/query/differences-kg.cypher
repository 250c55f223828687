// MedRAG eq. 14: the diagnostic differences KG K(e_L2s) of one subcategory, in one round trip:
// (disease, HAS_MANIFESTATION, feature) triples (L4a augmented features first, then most prevalent, $perDisease per disease)
// and (disease, HAS_KEY_DIFFERENCE, key difference) triples.
MATCH (d:Disease)-[:IS_A]->(s:Subcategory {id: $subcategoryId})
CALL {
  WITH d
  MATCH (d)-[m:HAS_MANIFESTATION]->(f:Feature)
  WITH m, f ORDER BY CASE f.kind WHEN 'augmented' THEN 0 ELSE 1 END, m.prevalence DESC, f.id LIMIT $perDisease
  RETURN collect({relation: 'HAS_MANIFESTATION', object: f.text, objectId: f.id, weight: m.prevalence, kind: f.kind}) AS manifestations
}
CALL {
  WITH d
  OPTIONAL MATCH (d)-[:HAS_KEY_DIFFERENCE]->(k:KeyDifference)
  WITH k ORDER BY k.id
  RETURN collect(CASE WHEN k IS NULL THEN NULL ELSE {relation: 'HAS_KEY_DIFFERENCE', object: k.text, objectId: k.featureId,
    weight: CASE WHEN k.prevalenceIn IS NULL OR k.prevalenceSiblings IS NULL THEN NULL ELSE k.prevalenceIn - k.prevalenceSiblings END} END) AS differences
}
RETURN d.id AS diseaseId, d.name AS disease, manifestations, differences
ORDER BY d.name
