// L4 feature nodes with their provenance, for the in-memory snapshot.
MATCH (f:Feature)
RETURN f.id AS id, f.text AS text, f.kind AS kind, f.code AS code, f.valueCode AS valueCode,
       f.question AS question, f.valueText AS valueText, f.antecedent AS antecedent, f.answerType AS answerType,
       f.parentCode AS parentCode, f.vocabulary AS vocabulary, f.forms AS forms, f.fromNotes AS fromNotes, f.xrefs AS xrefs
ORDER BY f.id
