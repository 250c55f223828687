// L4 features of kind "augmented" (label :AugmentedFeature beside :Feature).
UNWIND $rows AS r
MERGE (f:Feature {id: r.id})
SET f:AugmentedFeature, f.text = r.text, f.label = r.label, f.kind = r.kind, f.code = r.code, f.valueCode = r.valueCode,
    f.question = r.question, f.valueText = r.valueText, f.antecedent = r.antecedent,
    f.degree = toInteger(r.degree), f.buildId = $buildId
