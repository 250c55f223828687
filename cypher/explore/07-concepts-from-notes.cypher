// Where each concept came from (issue 24): the vocabulary of a concept read from notes (HPO
// phenotype, or emergent: phrases shared by at least k patients' notes; DDXPlus questions read
// from notes share the DDXPlus code) or "source code" for a coded source's own feature, the code,
// the forms the query side reads it by, and the diseases whose records showed it (count = records).
// Parameters ('any': every vocabulary; else 'HPO', 'emergent', 'source code'):
// :param vocabulary => 'emergent'
// :param limit => 50
MATCH (f:Feature)<-[m:HAS_MANIFESTATION]-(d:Disease)
WITH f, coalesce(f.vocabulary, 'source code') AS vocabulary, m, d
WHERE $vocabulary = 'any' OR vocabulary = $vocabulary
WITH f, vocabulary, collect({disease: d.name, records: m.count, prevalence: round(m.prevalence * 100) / 100}) AS shownBy
RETURN f.text AS concept, vocabulary, f.code AS code, coalesce(f.forms, []) AS forms, shownBy
ORDER BY size(shownBy) DESC, concept
LIMIT toInteger($limit)
