// dxgraph KG schema (see cypher/MODEL.md). Idempotent: IF NOT EXISTS everywhere.
// Unique ids make MERGE-on-id loads idempotent and fast.
CREATE CONSTRAINT category_id IF NOT EXISTS FOR (n:Category) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT subcategory_id IF NOT EXISTS FOR (n:Subcategory) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT disease_id IF NOT EXISTS FOR (n:Disease) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT disease_alias_id IF NOT EXISTS FOR (n:DiseaseAlias) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT feature_id IF NOT EXISTS FOR (n:Feature) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT key_difference_id IF NOT EXISTS FOR (n:KeyDifference) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT record_id IF NOT EXISTS FOR (n:Record) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT kg_build_id IF NOT EXISTS FOR (n:KgBuild) REQUIRE n.id IS UNIQUE;
// buildId indexes: the stale-node sweep after a completed build filters on them.
CREATE INDEX category_build IF NOT EXISTS FOR (n:Category) ON (n.buildId);
CREATE INDEX subcategory_build IF NOT EXISTS FOR (n:Subcategory) ON (n.buildId);
CREATE INDEX disease_build IF NOT EXISTS FOR (n:Disease) ON (n.buildId);
CREATE INDEX disease_alias_build IF NOT EXISTS FOR (n:DiseaseAlias) ON (n.buildId);
CREATE INDEX feature_build IF NOT EXISTS FOR (n:Feature) ON (n.buildId);
CREATE INDEX key_difference_build IF NOT EXISTS FOR (n:KeyDifference) ON (n.buildId);
CREATE INDEX record_build IF NOT EXISTS FOR (n:Record) ON (n.buildId);
// Lookups the query side and analysts use.
CREATE INDEX disease_name IF NOT EXISTS FOR (n:Disease) ON (n.name);
CREATE INDEX feature_code IF NOT EXISTS FOR (n:Feature) ON (n.code, n.valueCode);
CREATE INDEX kg_build_status IF NOT EXISTS FOR (n:KgBuild) ON (n.status);
