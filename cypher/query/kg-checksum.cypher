// Every node's id and labels, in id order, for a checksum of the KG (kg-build/kg-checksum.ts):
// two graphs with equal counts but different nodes get different checksums.
MATCH (n)
WHERE n.id IS NOT NULL
RETURN n.id AS id, labels(n) AS labels
ORDER BY id
