// bench/clinical-voice.ts: what Neo4j Browser shows on each Feature (style.grass caption: its
// clinical label where the build wrote one, else its text, the caption before issue 48).
MATCH (f:Feature)
RETURN coalesce(f.label, f.text) AS caption
