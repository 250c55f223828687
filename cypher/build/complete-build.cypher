MATCH (b:KgBuild {id: $id})
SET b.status = 'complete', b.finishedAt = $finishedAt, b.counts = $counts
RETURN b.id AS id
