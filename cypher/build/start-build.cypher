// A (re)started load: status back to "loading" until complete-build.
MERGE (b:KgBuild {id: $id})
SET b.source = $source, b.embedder = $embedder, b.embeddingDim = toInteger($embeddingDim),
    b.params = $params, b.counts = $counts, b.startedAt = $startedAt,
    b.finishedAt = null, b.status = 'loading'
