// Records of a disease: the training EHR records diagnosed as it, with their features.
// Needs a build with `--records-in-graph` (otherwise there are no :Record nodes and no rows).
// Parameters:
// :param diseaseId => 'dis:...'
// :param limit => 10
MATCH (r:Record)-[dx:DIAGNOSED_AS]->(d:Disease {id: $diseaseId})
WITH r, dx, d ORDER BY r.id LIMIT toInteger($limit)
OPTIONAL MATCH (r)-[hf:HAS_FEATURE]->(f:Feature)
RETURN r, dx, d, collect(hf) AS has, collect(f) AS features, r.id AS recordId, count(f) AS featureCount
ORDER BY recordId
