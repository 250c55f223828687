/**
 * Family-history concepts read from what a relative has (issue 17: "mother had an MI" is not the
 * patient's MI). The text analysis strips the relation ("my brother had", "family history of")
 * into the finding's cue and leaves the condition ("collapsed lung"), so a family-history
 * question needs its forms' cores: "brother had a collapsed lung" → "collapsed lung". Cores only
 * ever match findings about a relative. A question about one relative ("Does your mother have
 * asthma?") keeps that relative: its cores need the relative named in the cue.
 */

const RELATIVES: Record<string, readonly string[]> = {
  mother: ['mother', 'mom', 'mum', 'mama', 'mommy', 'maternal'],
  father: ['father', 'dad', 'daddy', 'papa', 'paternal'],
  sibling: ['brother', 'sister', 'sibling', 'siblings', 'brothers', 'sisters'],
  grandparent: ['grandmother', 'grandfather', 'grandma', 'grandpa', 'grandparent', 'grandparents'],
};
const RELATIVE_WORDS = Object.values(RELATIVES).flat();
const PERSON = `(?:${[...RELATIVE_WORDS, 'parents?', 'relatives?'].join('|')})`;
const VERB = '(?:has|had|have|is|are|was|with|gets|got|died of|died young of|suffers from)';
const LEAD = new RegExp(`^(?:(?:personal or )?family (?:history|hx) of|fam hx of|fhx of|${PERSON}(?: history of)?(?: ${VERB})?)\\s+(?:an?\\s+)?`);
const TRAIL = /\s+(?:runs? in (?:the|my) family|in the family|at \d+)$/;

/** The condition a family-history form names, or null when the form has no relation words to strip. */
export function familyCore(form: string): string | null {
  const core = form.replace(LEAD, '').replace(TRAIL, '').trim();
  if (core === form || core.length < 2 || /\bfamily\b/.test(core)) return null;
  return core;
}

const words = (s: string) => s.toLowerCase().split(/[^a-z]+/).filter(Boolean);

/** The relative class every form names ("mother has asthma", "maternal asthma" → mother), else null. */
export function onlyRelative(forms: readonly string[]): string | null {
  let only: string | null = null;
  for (const f of forms) {
    const named = Object.entries(RELATIVES).filter(([, ws]) => words(f).some((w) => ws.includes(w))).map(([k]) => k);
    if (named.length !== 1 || (only !== null && only !== named[0])) return null;
    only = named[0]!;
  }
  return only;
}

/** Whether a text (the finding and its cue) names a relative of the class. */
export function namesRelative(relative: string, text: string): boolean {
  const ws = RELATIVES[relative] ?? [];
  return words(text).some((w) => ws.includes(w));
}
