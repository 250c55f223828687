/**
 * What the clinical-text module reads text into, and how a finding meets a concept: the same
 * shapes at build time (notes) and at query time (a request), so the two can never drift.
 * src/query/contracts.ts re-exports both as part of the query's public contract.
 */
import type { Polarity } from '../domain/record.js';
import type { MeasuredValue } from './analysis/types.js';

/** A structured finding in a request (free text is decomposed into these). */
export interface InputFinding {
  text: string;
  polarity: Polarity;
  /** Source code for coded input (DDXPlus evidence "E_55" / value "V_89"), else null. */
  code: string | null;
  valueCode: string | null;
  /** Free-text findings only (src/clinical-text/analysis): where the finding sits in the request text (UTF-16 offsets). */
  span?: { start: number; end: number };
  /** The clause the finding came from: modifiers ("worse when breathing in") keep their head's clause. */
  clause?: { start: number; end: number };
  /** NegEx/ConText attributes; `polarity` stays the summary ('absent' only for negated findings). */
  assertion?: 'present' | 'absent' | 'possible' | 'hypothetical';
  experiencer?: 'patient' | 'family' | 'other';
  temporality?: 'current' | 'historical';
  /** The cue that set a non-default attribute ("denies", "h/o", "mother had"). */
  cue?: string | null;
  /** Values read from the finding: laterality, 0-10 intensity, temperature, duration. */
  values?: {
    side?: 'R' | 'L' | 'both';
    intensity?: number;
    temperatureC?: number;
    duration?: { value: number; unit: 'hour' | 'day' | 'week' | 'month' | 'year'; days: number };
  };
  /**
   * Free-text findings read from a measurement ("HR 118" -> "Elevated heart rate"): what was measured.
   * Their text is a vocabulary term, read by its exact forms only (never by the embedding fallback).
   */
  measured?: MeasuredValue;
  /** "never had X before" (analysis/types.ts): present for a complaint, a denial for a history concept (match-concepts.ts). */
  firstEver?: true;
  /** Free-text findings of a note with headings: the kind of section the finding sits in ("hpi", "exam", "meds"; sections/). */
  section?: string;
}

export interface FeatureMatch {
  findingIndex: number;
  featureId: string;
  featureText: string;
  /** The feature's clinical label (presentation/): what a clinician reads; set on the diagnose trace (query/label-matches.ts). */
  featureLabel?: string;
  similarity: number;
  polarity: Polarity;
  /** Matches of one finding sharing this key are alternatives (one unit of weight); absent = the finding index. */
  alternatives?: string;
  /** How the finding became this feature: a lexicon form, a typo correction, an embedding, a code (trace only). */
  via?: string;
}
