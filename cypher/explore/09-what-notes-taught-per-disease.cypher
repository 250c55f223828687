// What the KG learnt from notes, disease by disease (issue 47): for each disease, its records, how
// many features only its notes taught (HPO phenotypes, lexicon concepts and emergent phrases read
// from text: Feature.fromNotes), and the best-backed of them (notes = how many of its records state
// the finding, prevalence = that share). A disease with few or no such features is one the notes
// could not tell apart: the build report's "notes learnt per disease" lists the same.
// Parameters ('notes': features only notes taught; 'any': every feature, coded ones too):
// :param learnt => 'notes'
// :param featuresPerDisease => 5
MATCH (d:Disease)
OPTIONAL MATCH (d)-[m:HAS_MANIFESTATION]->(f:Feature)
WHERE $learnt = 'any' OR f.fromNotes = true
WITH d, f, m ORDER BY m.count DESC, m.prevalence DESC, f.text
WITH d, [x IN collect(CASE WHEN f IS NULL THEN null ELSE {feature: f.text, vocabulary: coalesce(f.vocabulary, 'source code'), records: m.count, prevalence: round(m.prevalence * 100) / 100} END) WHERE x IS NOT NULL] AS learnt
RETURN d.name AS disease, coalesce(d.recordCount, 0) AS records, size(learnt) AS features, learnt[..toInteger($featuresPerDisease)] AS top
ORDER BY features, disease
