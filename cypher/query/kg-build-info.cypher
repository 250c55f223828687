// GET /v1/kg/summary: the most recent complete build recorded in the KG.
MATCH (b:KgBuild {status: 'complete'})
RETURN b.id AS id, b.source AS source, b.embedder AS embedder, b.embeddingDim AS embeddingDim,
       b.status AS status, b.startedAt AS startedAt, b.finishedAt AS finishedAt
ORDER BY b.finishedAt DESC
LIMIT 1
