// Benchmarks only (bench/run.ts): delete up to $limit nodes with their relationships; run until 0.
// Gives each size's build an empty database, so the load rate is that of a fresh load.
MATCH (n)
WITH n LIMIT toInteger($limit)
DETACH DELETE n
RETURN count(*) AS deleted
