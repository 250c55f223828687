// Edges an older build wrote between nodes that survive (e.g. a disease moved to another subcategory).
MATCH ()-[r:IS_A|HAS_MANIFESTATION|HAS_KEY_DIFFERENCE|CONTRASTS_WITH|ABOUT|ALIAS_OF|HAS_FEATURE|DIAGNOSED_AS]->()
WHERE r.buildId <> $buildId
WITH r LIMIT toInteger($limit)
DELETE r
RETURN count(*) AS deleted
