// The most discriminative features: lowest degree = fewest diseases share them, so asking about
// them splits the differential best. sigma(f) = (n - 1) / deg(f) (MedRAG eq. 15-16), n = diseases.
// Parameters:
// :param limit => 25
MATCH (dis:Disease)
WITH count(dis) AS n
MATCH (f:Feature)<-[:HAS_MANIFESTATION]-(d:Disease)
WITH n, f, collect(d.name) AS diseases
RETURN f.id AS featureId, f.text AS feature, f.kind AS kind, f.code AS code, f.valueCode AS valueCode,
       size(diseases) AS degree, (n - 1.0) / size(diseases) AS sigma, diseases
ORDER BY sigma DESC, feature
LIMIT toInteger($limit)
