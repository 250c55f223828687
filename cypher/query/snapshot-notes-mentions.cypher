// Every NOTES_MENTION edge (disease, feature, count), for the in-memory snapshot's text view.
MATCH (d:Disease)-[m:NOTES_MENTION]->(f:Feature)
RETURN d.id AS diseaseId, f.id AS featureId, m.count AS count
