// The most recent complete build recorded in the KG (query side checks it against the artifacts).
MATCH (b:KgBuild {status: 'complete'})
RETURN b.id AS id, b.embedder AS embedder, b.embeddingDim AS embeddingDim, b.finishedAt AS finishedAt
ORDER BY b.finishedAt DESC
LIMIT 1
