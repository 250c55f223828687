// Integration-test probe: read the nodes written by test/write-probes, in id order.
MATCH (p:DxTestProbe)
RETURN p.id AS id, p.name AS name, p.weight AS weight
ORDER BY id
