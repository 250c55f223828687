// How a disease's coded records and its notes speak of each feature (issue 24): the coded
// answer's rate (HAS_MANIFESTATION prevalence) beside the share of the disease's records with
// notes that name it (NOTES_MENTION count / Disease.notedRecords), which is what a description
// written as text is read against. The notes columns are null for a disease whose records are
// all coded or all notes (its HAS_MANIFESTATION rate is then the only one).
// :param diseaseId => 'dis:pneumonia'
// :param limit => 30
MATCH (d:Disease {id: $diseaseId})
CALL {
  WITH d
  MATCH (d)-[m:HAS_MANIFESTATION]->(f:Feature)
  RETURN f, m.prevalence AS coded
  UNION
  WITH d
  MATCH (d)-[:NOTES_MENTION]->(f:Feature)
  RETURN f, null AS coded
}
WITH d, f, max(coded) AS coded
OPTIONAL MATCH (d)-[n:NOTES_MENTION]->(f)
WITH d, f, coded, n, CASE WHEN n IS NULL OR d.notedRecords IS NULL THEN null ELSE round(100.0 * n.count / d.notedRecords) / 100 END AS notesRate
RETURN f.text AS feature, coalesce(f.vocabulary, 'source code') AS vocabulary, round(coded * 100) / 100 AS codedRate,
       n.count AS notes, d.notedRecords AS notedRecords, notesRate
ORDER BY coalesce(notesRate, 0) + coalesce(coded, 0) DESC, feature
LIMIT toInteger($limit)
