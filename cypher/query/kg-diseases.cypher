// GET /v1/kg/diseases: every L3 disease with its L2 subcategory and L1 category (when linked).
MATCH (d:Disease)
OPTIONAL MATCH (d)-[:IS_A]->(s:Subcategory)
OPTIONAL MATCH (s)-[:IS_A]->(c:Category)
RETURN d.id AS id, d.name AS name, d.icd10 AS icd10, coalesce(d.recordCount, 0) AS recordCount,
       s.id AS subcategoryId, s.name AS subcategory, c.id AS categoryId, c.name AS category
ORDER BY d.name, d.id
