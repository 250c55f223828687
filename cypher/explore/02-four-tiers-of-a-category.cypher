// The four tiers of one category: L1 category -> L2 subcategories -> L3 diseases -> L4 features
// (each disease's most prevalent manifestations), as a graph. Load style.grass first.
// Parameters (run in Neo4j Browser before this query; ids from 01-hierarchy-overview):
// :param categoryId => 'cat:...'
// :param featuresPerDisease => 4
MATCH tiers = (d:Disease)-[:IS_A]->(s:Subcategory)-[:IS_A]->(c:Category {id: $categoryId})
CALL {
  WITH d
  MATCH (d)-[m:HAS_MANIFESTATION]->(f:Feature)
  RETURN m, f ORDER BY m.prevalence DESC, f.id LIMIT toInteger($featuresPerDisease)
}
RETURN tiers, m, f
