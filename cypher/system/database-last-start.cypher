// When the database last started (run on the system database): a restarted server has an
// empty plan cache, so GraphStore.explain plans again after it (graph-store.ts).
SHOW DATABASE $name YIELD lastStartTime RETURN toString(lastStartTime) AS t
