// Integration-test probe (test/int/neo4j.test.ts): write a batch of nodes.
UNWIND $rows AS row
MERGE (p:DxTestProbe {id: row.id})
SET p.name = row.name, p.weight = row.weight
RETURN count(p) AS written
