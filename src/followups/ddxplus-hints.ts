/** Answer types of DDXPlus questions from its evidence dictionary (data_type B / C / M), as the DDXPlus source sets them on findings. */
import type { EvidenceEntry } from '../sources/ddxplus/dictionary.js';
import { ddxplusAnswerType } from '../sources/ddxplus/render.js';
import type { AnswerType, AnswerTypeHints } from './question-model.js';

export function ddxplusAnswerTypes(evidences: ReadonlyMap<string, EvidenceEntry>): AnswerTypeHints {
  const out = new Map<string, AnswerType>();
  for (const [code, ev] of evidences) out.set(code, ddxplusAnswerType(ev));
  return out;
}
