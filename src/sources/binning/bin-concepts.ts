import type { VocabularyConcept } from '../../clinical-text/vocabulary.js';
import { binByTertiles, type Tertiles } from './bins.js';

/**
 * A source's numeric codes as the bin concepts its records can carry (bins.ts), for the note
 * reader: a value a note writes ("RR 24", "HR 64") is read into the bin the visit's own rows of
 * that code are binned into (src/clinical-text/concepts/match-measured.ts), so build and query
 * read a measurement as one feature whichever way it was recorded. A code whose values have a
 * reference range (or an interpretation) gets low / normal / high; one whose values have none,
 * its thirds by the source's cut points. Both when its values are of both kinds.
 */
export interface NumericCode {
  /** The concept key the source's findings carry ("LOINC:8867-4"). */
  key: string;
  vocabulary: string;
  name: string;
  /** Some values were binned by a reference range or an interpretation. */
  ranged: boolean;
  /** The unit most of its values without a range are in (the thirds' labels state it); null: none. */
  unit: string | null;
}

const RANGE_BINS = [['L', 'low'], ['N', 'normal'], ['H', 'high']] as const;

export function binConcepts(codes: readonly NumericCode[], tertiles: ReadonlyMap<string, Tertiles>): VocabularyConcept[] {
  const out: VocabularyConcept[] = [];
  const concept = (c: NumericCode, valueCode: string, valueText: string): VocabularyConcept => ({
    vocabulary: c.vocabulary, code: c.key, label: `${c.name}: ${valueText}`, forms: [], xrefs: [], parents: [], bin: { valueCode, valueText, question: c.name },
  });
  for (const c of [...codes].sort((a, b) => a.key.localeCompare(b.key))) {
    if (c.ranged) for (const [code, label] of RANGE_BINS) out.push(concept(c, code, label));
    const t = tertiles.get(c.key);
    if (!t) continue;
    // A value of each third gives its label (binByTertiles writes them: one rule, one spelling); the
    // middle third is empty when both cut points are equal.
    for (const v of [t.c1, ...(t.c2 > t.c1 ? [t.c2] : []), t.c2 + Math.abs(t.c2) + 1]) {
      const bin = binByTertiles(v, t, c.unit);
      out.push(concept(c, bin.code, bin.label));
    }
  }
  return out;
}
