UNWIND $rows AS r
MERGE (d:Disease {id: r.id})
SET d.name = r.name, d.icd10 = r.icd10, d.recordCount = toInteger(r.recordCount), d.aliases = r.aliases, d.buildId = $buildId,
    d.ageBands = r.ageBands, d.sexCounts = r.sexCounts, d.declaredEvidence = r.declaredEvidence, d.knownEvidence = r.knownEvidence, d.knownRates = r.knownRates, d.knowledgeSource = r.knowledgeSource, d.notedRecords = r.notedRecords
WITH d, r
MATCH (s:Subcategory {id: r.subcategoryId})
MERGE (d)-[e:IS_A]->(s)
SET e.buildId = $buildId
