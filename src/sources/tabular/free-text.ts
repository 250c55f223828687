import type { Finding } from '../../domain/record.js';

/** Leading negation cues: the finding is kept, as evidence against ("no fever", "denies chest pain"). */
const NEGATION = /^(no|not|denies|denied|without|negative for|absence of|absent|free of)\b/i;

/**
 * Splits a free-text manifestations cell into findings: one per `;` or line. Commas are kept
 * inside a finding on purpose ("pain in the left arm, worse at night" is one manifestation).
 */
export function splitFreeText(text: string, antecedent: boolean | null): Finding[] {
  return text
    .split(/[;\r\n]+/)
    .map((piece) => piece.trim().replace(/[.]+$/, '').trim())
    .filter((piece) => piece !== '')
    .map((piece) => ({
      text: piece,
      polarity: NEGATION.test(piece) ? 'absent' : 'present',
      code: null,
      valueCode: null,
      question: null,
      valueText: null,
      antecedent,
    }));
}
