// Every disease of the current build with its ICD-10 code, record count, subcategory and the raw
// diagnosis names clustered into it (:DiseaseAlias; empty when the source names were already unified).
// No parameters.
MATCH (b:KgBuild {status: 'complete'})
WITH b ORDER BY b.finishedAt DESC LIMIT 1
MATCH (d:Disease)-[:IS_A]->(s:Subcategory)
OPTIONAL MATCH (a:DiseaseAlias)-[:ALIAS_OF]->(d)
WITH b, d, s, collect(a.name) AS aliases
RETURN b.id AS buildId, d.id AS diseaseId, d.name AS disease, d.icd10 AS icd10, d.recordCount AS records,
       s.name AS subcategory, aliases
ORDER BY size(aliases) DESC, records DESC, disease
