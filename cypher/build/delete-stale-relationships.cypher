// Edges an older build wrote between nodes that survive (e.g. a disease moved to another subcategory).
// :Record edges are not here: merge-records replaces a record's edges whole, and a stale
// record's DETACH DELETE (delete-stale-nodes) removes its edges.
MATCH ()-[r:IS_A|HAS_MANIFESTATION|NOTES_MENTION|HAS_KEY_DIFFERENCE|CONTRASTS_WITH|ABOUT|ALIAS_OF]->()
WHERE r.buildId <> $buildId
WITH r LIMIT toInteger($limit)
DELETE r
RETURN count(*) AS deleted
