// L4 features of kind "ehr" (label :EhrFeature beside :Feature).
UNWIND $rows AS r
MERGE (f:Feature {id: r.id})
SET f:EhrFeature, f.text = r.text, f.label = r.label, f.kind = r.kind, f.code = r.code, f.valueCode = r.valueCode,
    f.question = r.question, f.valueText = r.valueText, f.antecedent = r.antecedent, f.answerType = r.answerType,
    f.parentCode = r.parentCode, f.vocabulary = r.vocabulary, f.forms = r.forms, f.fromNotes = r.fromNotes, f.xrefs = r.xrefs,
    f.degree = toInteger(r.degree), f.buildId = $buildId
// Concepts read from notes get a label Neo4j Browser can colour (style.grass): a phenotype
// vocabulary's (HPO) or one that emerged from the notes.
FOREACH (_ IN CASE WHEN r.vocabulary = 'HPO' THEN [1] ELSE [] END | SET f:PhenotypeConcept)
FOREACH (_ IN CASE WHEN r.vocabulary = 'emergent' THEN [1] ELSE [] END | SET f:EmergentConcept)
