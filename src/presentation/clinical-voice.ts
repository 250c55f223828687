/**
 * One clinical voice (issue 48 item 2): the label a clinician reads for a feature and the question
 * put to the clinician about the patient, rendered from the reviewed data file for coded source
 * questions (DDXPlus) and from the feature's own clinical name otherwise (HPO name, SNOMED/OMOP
 * display, an emergent concept's phrase). A feature whose label is not a readable clinical phrase
 * gets no question (null): it is not asked about.
 */
import { clip, plainLabel } from './plain-label.js';
import type { VoiceData, VoiceEntry } from './voice-data.js';
import { isClinicalLabel, questionProblems } from './voice-checks.js';

/** The fields of a KG feature a label or question is rendered from. */
export interface VoiceFeature {
  text: string;
  code: string | null;
  valueCode: string | null;
  question?: string | null;
  valueText?: string | null;
}

const YES = /^(yes|y)$/i;
const norm = (s: string): string => s.trim().toLowerCase().replace(/\s+/g, ' ');
const capitalise = (s: string): string => (s === '' ? s : s[0]!.toUpperCase() + s.slice(1));

export class ClinicalVoice {
  constructor(private readonly data: VoiceData) {}

  /** The reviewed entry of a feature's source question; none when another source reuses the code for another question. */
  private entry(f: Pick<VoiceFeature, 'code' | 'question'>): VoiceEntry | null {
    const e = f.code === null ? undefined : this.data.evidences[f.code];
    if (e === undefined) return null;
    return f.question === null || f.question === undefined || norm(f.question) === norm(e.source) ? e : null;
  }

  /** A question from a feature's own wording where no entry names it: the source's question when it is already in the voice, else its label asked. */
  private ownQuestion(f: VoiceFeature, label: string): string | null {
    if (f.question && questionProblems(f.question).length === 0) return f.question.trim();
    if (isClinicalLabel(label)) return `${label}?`;
    return null;
  }

  /** The words of a feature's answer value ("pink", "right iliac wing", "7"); null for a boolean feature. */
  valueWords(f: VoiceFeature): string | null {
    if (f.valueCode === null) return null;
    const e = this.entry(f);
    const words = e?.valueSet === 'sites' ? this.data.sites[f.valueCode] : e?.values?.[f.valueCode];
    return words ?? f.valueText ?? f.valueCode;
  }

  /** The label a clinician reads: at most 60 characters, not a question, no answer glued on. */
  label(f: VoiceFeature): string {
    const e = this.entry(f);
    if (e === null) return plainLabel(f.text, { question: f.question ?? null, valueText: f.valueText ?? null });
    if (f.valueCode === null) return e.label;
    const whole = e.valueLabels?.[f.valueCode];
    if (whole !== undefined) return whole;
    const words = this.valueWords(f)!;
    if (YES.test(words) || YES.test(f.valueText ?? '')) return e.label;
    return clip(capitalise((e.valueForm ?? '{label} {value}').replace('{label}', e.label).replace('{value}', words)));
  }

  /** An answer option's words, as the question's chips show them. */
  optionLabel(f: VoiceFeature): string {
    const e = this.entry(f);
    if (e === null) return f.valueText ?? f.valueCode ?? this.label(f);
    return this.valueWords(f) ?? e.label;
  }

  /**
   * The question about one feature (yes/no): the reviewed question of its source question when the
   * feature is that question's "yes", else its label asked ("Pain at right iliac wing?"); null when
   * the label is not a readable clinical phrase.
   */
  yesNoQuestion(f: VoiceFeature): string | null {
    const e = this.entry(f);
    const isYes = f.valueCode === null || YES.test(this.valueWords(f) ?? '') || YES.test(f.valueText ?? '');
    if (e !== null && isYes) return e.question;
    const label = this.label(f);
    if (e === null && isYes) return this.ownQuestion(f, label);
    return isClinicalLabel(label) ? `${label}?` : null;
  }

  /**
   * The label of a feature the data file reviewed: its source question's entry names it, and its
   * value where it has one; null otherwise (another source's code, a value the file does not list).
   * Hierarchy names use it where a label a reviewer wrote is wanted, not one rendered from raw text.
   */
  reviewedLabel(f: VoiceFeature): string | null {
    const e = this.entry(f);
    if (e === null) return null;
    // A value given by its words only ("lower chest" with no code): the entry cannot name it.
    if (f.valueCode === null && f.valueText && !YES.test(f.valueText.trim())) return null;
    if (f.valueCode !== null && e.valueLabels?.[f.valueCode] === undefined) {
      const words = e.valueSet === 'sites' ? this.data.sites[f.valueCode] : e.values?.[f.valueCode];
      if (words === undefined) return null;
    }
    return this.label(f);
  }

  /** The question of a source question asked with its options (its first feature speaks for an unknown code). */
  groupQuestion(first: VoiceFeature): string | null {
    const e = this.entry(first);
    if (e !== null) return e.question;
    return this.ownQuestion(first, plainLabel(first.question ?? first.text));
  }
}
