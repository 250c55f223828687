// Integration-test probe: a two-statement schema file (exercises writeAll).
CREATE CONSTRAINT dx_test_probe_id IF NOT EXISTS FOR (p:DxTestProbe) REQUIRE p.id IS UNIQUE;
CREATE INDEX dx_test_probe_name IF NOT EXISTS FOR (p:DxTestProbe) ON (p.name);
