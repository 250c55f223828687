// Every NOTES_MENTION edge (disease, feature, count), for the in-memory snapshot's text view.
// In id order, like every snapshot query: the answer must not depend on Neo4j's plan.
MATCH (d:Disease)-[m:NOTES_MENTION]->(f:Feature)
RETURN d.id AS diseaseId, f.id AS featureId, m.count AS count
ORDER BY diseaseId, featureId
