// GET /v1/kg/subcategories/{id}/differences: the subcategory, its category and its diseases (no row: unknown id).
MATCH (s:Subcategory {id: $subcategoryId})
OPTIONAL MATCH (s)-[:IS_A]->(c:Category)
OPTIONAL MATCH (d:Disease)-[:IS_A]->(s)
WITH s, c, d ORDER BY d.name
RETURN s.id AS id, s.name AS name, c.id AS categoryId, c.name AS category,
       [x IN collect(d) | {id: x.id, name: x.name}] AS diseases
