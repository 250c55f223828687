// MedRAG eq. 14: the diagnostic differences KG K(e_L2s) of one subcategory, in one round trip:
// every (disease, HAS_MANIFESTATION, feature) edge of its diseases with the feature's provenance
// (src/query/differences-kg.ts ranks them by strength over the siblings, keeps those present in at
// least 30% of the disease's records, $perDisease per disease, and renders their clinical labels),
// and the (disease, HAS_KEY_DIFFERENCE, key difference) triples with the feature they are about.
MATCH (d:Disease)-[:IS_A]->(s:Subcategory {id: $subcategoryId})
CALL {
  WITH d
  MATCH (d)-[m:HAS_MANIFESTATION]->(f:Feature)
  RETURN collect({relation: 'HAS_MANIFESTATION', object: f.text, objectId: f.id, weight: m.prevalence, kind: f.kind,
    code: f.code, valueCode: f.valueCode, question: f.question, valueText: f.valueText}) AS manifestations
}
CALL {
  WITH d
  OPTIONAL MATCH (d)-[:HAS_KEY_DIFFERENCE]->(k:KeyDifference)
  OPTIONAL MATCH (f:Feature {id: k.featureId})
  WITH k, f ORDER BY k.id
  RETURN collect(CASE WHEN k IS NULL THEN NULL ELSE {relation: 'HAS_KEY_DIFFERENCE', object: k.text, objectId: k.featureId,
    weight: CASE WHEN k.prevalenceIn IS NULL OR k.prevalenceSiblings IS NULL THEN NULL ELSE k.prevalenceIn - k.prevalenceSiblings END,
    featureText: f.text, code: f.code, valueCode: f.valueCode, question: f.question, valueText: f.valueText} END) AS differences
}
RETURN d.id AS diseaseId, d.name AS disease, manifestations, differences
ORDER BY d.name
