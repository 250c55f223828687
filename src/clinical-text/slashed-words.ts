/**
 * Words joined by slashes ("pain/swelling", "fever/chills", "hot/red/swollen") are a list, read
 * like "and" by the analysis (atoms.ts) and word by word by the concept layer. Kept whole:
 * shorthand with a short part ("N/V", "h/o", "s/p", "mg/dL"), "and/or", and rates ("3 drinks/day").
 * One rule for both tokenizers, so a finding's words are the words the analysis split it by.
 */
const SLASHED_WORDS = /^[A-Za-z]{3,}(?:\/[A-Za-z]{3,})+$/;
const RATE = /\/(?:day|days|week|wk|month|night|year|yr|hour|hr|min|minute)s?$/i;

/** The words of a slash-joined list with their offsets in `raw`, or null when the token is to stay whole. */
export function slashedWords(raw: string): { word: string; at: number }[] | null {
  if (!SLASHED_WORDS.test(raw) || /^and\/or$/i.test(raw) || RATE.test(raw)) return null;
  let at = 0;
  return raw.split('/').map((word) => {
    const part = { word, at };
    at += word.length + 1;
    return part;
  });
}
