// Hierarchy overview: every L1 category with its L2 subcategories and their L3 diseases.
// Run this first: it lists the ids the other explore queries take as parameters.
// No parameters. Table view reads best; switch to Graph for the tree of category and subcategory nodes.
MATCH (c:Category)<-[:IS_A]-(s:Subcategory)<-[:IS_A]-(d:Disease)
WITH c, s, d ORDER BY d.name
RETURN c.id AS categoryId, c.name AS category, s.id AS subcategoryId, s.name AS subcategory,
       count(d) AS diseases, collect(d.name) AS diseaseNames, collect(d.id) AS diseaseIds
ORDER BY category, subcategory
