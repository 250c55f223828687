// Benchmarks only (bench/run.ts, bench/load-rate.ts): run until it deletes 0. Gives each
// size's build an empty database, so the load rate is that of a fresh load.
// Relationships go first, $limit per transaction, then the bare nodes: a node-first
// DETACH DELETE takes a dense :Feature node's whole edge list (~40k edges at 100k records
// in the graph) into one transaction, past Neo4j's transaction memory limit.
CALL {
  MATCH ()-[r]->()
  WITH r LIMIT toInteger($limit)
  DELETE r
  RETURN count(*) AS relationships
}
CALL {
  WITH relationships
  MATCH (n)
  WHERE relationships = 0
  WITH n LIMIT toInteger($limit)
  DELETE n
  RETURN count(*) AS nodes
}
RETURN relationships + nodes AS deleted
