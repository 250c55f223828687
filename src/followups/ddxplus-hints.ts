/** Answer types of DDXPlus questions from its evidence dictionary (data_type B / C / M). */
import type { EvidenceEntry } from '../sources/ddxplus/dictionary.js';
import type { AnswerType, AnswerTypeHints } from './question-model.js';

export function ddxplusAnswerTypes(evidences: ReadonlyMap<string, EvidenceEntry>): AnswerTypeHints {
  const out = new Map<string, AnswerType>();
  for (const [code, ev] of evidences) {
    const numeric = typeof ev['possible-values'][0] === 'number';
    out.set(code, ev.data_type === 'B' ? 'yes-no' : ev.data_type === 'M' ? 'several-of' : numeric ? 'number' : 'one-of');
  }
  return out;
}
