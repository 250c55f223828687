// L1 categories, L2 subcategories and L3 diseases for the in-memory snapshot (read once at start-up).
CALL {
  MATCH (c:Category)
  RETURN collect({id: c.id, name: c.name}) AS categories
}
CALL {
  MATCH (s:Subcategory)-[:IS_A]->(c:Category)
  RETURN collect({id: s.id, name: s.name, categoryId: c.id}) AS subcategories
}
CALL {
  MATCH (d:Disease)-[:IS_A]->(s:Subcategory)
  RETURN collect({id: d.id, name: d.name, subcategoryId: s.id, icd10: d.icd10, recordCount: d.recordCount, aliases: coalesce(d.aliases, []), ageBands: d.ageBands, sexCounts: d.sexCounts, declaredEvidence: d.declaredEvidence, knownEvidence: d.knownEvidence, knownRates: d.knownRates, knowledgeSource: d.knowledgeSource, notedRecords: d.notedRecords}) AS diseases
}
RETURN categories, subcategories, diseases
