/**
 * Public contract of the clinical text analyser (issue 17). The matcher codes against
 * these types: keep them stable and add optional fields only.
 */
export type Assertion = 'present' | 'absent' | 'possible' | 'hypothetical';
export type Experiencer = 'patient' | 'family' | 'other';
export type Temporality = 'current' | 'historical';

/** UTF-16 offsets into the original text, end exclusive. */
export interface Span {
  start: number;
  end: number;
}

export type DurationUnit = 'hour' | 'day' | 'week' | 'month' | 'year';

export interface ExtractedValues {
  side?: 'R' | 'L' | 'both';
  /** 0-10: "7/10", "pain 8 out of 10". */
  intensity?: number;
  /** "39C", "102.5F", "temp 38.9" -> °C. */
  temperatureC?: number;
  /** "x3 days", "for 2 wks", "since yesterday". */
  duration?: { value: number; unit: DurationUnit; days: number };
}

export interface TextFinding {
  /** The atomic finding, cues removed: "short of breath", "crushing chest pain radiating to left arm". */
  text: string;
  /** Its place in the original text. */
  span: Span;
  /** The clause it came from; modifiers ("worse when breathing in") share their head's clause. */
  clause: Span;
  assertion: Assertion;
  experiencer: Experiencer;
  temporality: Temporality;
  /** The cue text that set a non-default attribute ("denies", "mother had", "h/o", "no"). */
  cue: string | null;
  values: ExtractedValues;
  /** Set when the finding was read from a measurement ("HR 118" -> "Elevated heart rate", measurements.ts). */
  measured?: MeasuredValue;
  /**
   * "never had X before": X is new to the patient. Present for a complaint ("never had chest pain
   * before"); for a history concept ("never had asthma before") the matcher reads it as a denial.
   */
  firstEver?: true;
}

/** A measurement a finding was read from: what, its LOINC code, the value in the rule's base unit. */
export interface MeasuredValue {
  analyte: string;
  loinc: string;
  value: number;
  unit: string;
  /**
   * True when the value is inside the rule's limits: the finding names no abnormality ("heart rate
   * 72 /min") and only a KG's binned measurements read it (concepts/match-measured.ts).
   */
  withinLimits?: boolean;
}

export interface Demographics {
  age: number | null;
  sex: 'M' | 'F' | null;
  span: Span | null;
}

export interface TextAnalysis {
  findings: TextFinding[];
  demographics: Demographics;
}
