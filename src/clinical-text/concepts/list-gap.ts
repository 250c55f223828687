import type { Token } from './normalize.js';

const LIST_JOINERS: ReadonlySet<string> = new Set(['and', 'or', 'nor', '&']);
const LIST_GAP = 4;

/**
 * A phrase read in order across a list inserted into it ("worse with [coughing and] sneezing", the
 * form "worse with sneezing"): as tight as the phrase itself, so it hides the shorter mention inside
 * it (the sneeze is what worsens the pain, not a symptom of its own). The list ends where the phrase
 * goes on: a joiner or a comma right before its next word, not any punctuation inside the gap
 * ("vomiting x6 overnight (seasick after the buffet)" is no "vomits after").
 */
export function listGapped(tokens: readonly Token[], at: readonly number[]): boolean {
  // Without a gap this says nothing: a typo-tolerant phrase ("sore troat") keeps losing to an exact shorter one, as before.
  let gapped = false;
  for (let i = 1; i < at.length; i++) {
    const gap = at[i]! - at[i - 1]! - 1;
    if (gap < 0 || gap > LIST_GAP) return false;
    if (gap === 0) continue;
    gapped = true;
    // Tokens are words only: a comma shows as a wider space than one blank before the phrase's next word.
    const next = at[i]!;
    if (!LIST_JOINERS.has(tokens[next - 1]!.norm) && tokens[next]!.start - tokens[next - 1]!.end <= 1) return false;
  }
  return gapped;
}
