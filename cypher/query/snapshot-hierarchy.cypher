// L1 categories, L2 subcategories and L3 diseases for the in-memory snapshot (read once at start-up).
// Each tier in id order: the snapshot's indices (and so every tie an answer breaks by index) must not
// depend on the plan Neo4j happens to pick, or two replicas of one build could answer apart.
CALL {
  MATCH (c:Category)
  WITH c ORDER BY c.id
  RETURN collect({id: c.id, name: c.name}) AS categories
}
CALL {
  MATCH (s:Subcategory)-[:IS_A]->(c:Category)
  WITH s, c ORDER BY s.id
  RETURN collect({id: s.id, name: s.name, categoryId: c.id}) AS subcategories
}
CALL {
  MATCH (d:Disease)-[:IS_A]->(s:Subcategory)
  WITH d, s ORDER BY d.id
  RETURN collect({id: d.id, name: d.name, subcategoryId: s.id, icd10: d.icd10, recordCount: d.recordCount, aliases: coalesce(d.aliases, []), ageBands: d.ageBands, sexCounts: d.sexCounts, declaredEvidence: d.declaredEvidence, knownEvidence: d.knownEvidence, knownRates: d.knownRates, knowledgeSource: d.knowledgeSource, notedRecords: d.notedRecords}) AS diseases
}
RETURN categories, subcategories, diseases
