import type { CueDef } from './cue-lexicon.js';
/**
 * Relation phrases: who, other than the patient, has the finding ("mother's also had", "roommate
 * who lives with us was diagnosed with"). Each is a head (a noun or its "'s") then a tail (an
 * adverb, then a verb): 156 heads by 374 tails, 58,344 phrases. Written out they cost
 * ~0.3 s of CPU in every process that imports the text reader, so the matcher (cue-trie.ts)
 * is given the heads and tails and joins them when a sentence walks into them.
 */
const FAMILY_NOUNS = [
  'mother', 'mom', 'mum', 'mommy', 'father', 'dad', 'daddy', 'sister', 'brother', 'sibling', 'siblings', 'parent', 'parents', 'aunt',
  'uncle', 'grandmother', 'grandfather', 'grandma', 'grandpa', 'granny', 'grandparent', 'grandparents', 'cousin', 'twin', 'relative',
  'relatives', 'family',
  // What grandchildren call them: "my nan has diabetes" is the grandmother's.
  'nan', 'nana', 'nanna', 'gran', 'grandad', 'granddad',
  // A sibling named with the adjective that tells them apart: "her older brother has a cough" is the brother's cough.
  'older brother', 'younger brother', 'big brother', 'little brother', 'baby brother', 'twin brother', 'older sister', 'younger sister',
  'big sister', 'little sister', 'baby sister', 'twin sister', 'older sibling', 'older siblings', 'younger sibling', 'younger siblings',
];
const OTHER_NOUNS = [
  'son', 'daughter', 'kid', 'kids', 'child', 'children', 'baby', 'husband', 'wife', 'partner', 'boyfriend', 'girlfriend', 'friend',
  'friends', 'roommate', 'room mate', 'roomie', 'housemate', 'house mate', 'flatmate', 'coworker', 'coworkers', 'co-worker', 'colleague', 'neighbor', 'neighbour', 'classmate', 'boss', 'spouse',
];
const RELATION_VERBS = [
  'has', 'had', 'have', 'is', 'was', 'were', 'are', 'got', 'caught', 'with', 'died of', 'died from', 'died young of', 'died young from', 'died suddenly of', 'passed away from', 'diagnosed with',
  'was diagnosed with', 'w/', ':', '-', 'suffers from', 'suffered from', 'history of', 'hx of', 'hx', 'h/o', 'member has', 'member had', 'members have',
  // What a relative does is theirs too: "his sister goes to daycare and is sick".
  'goes to', 'go to', 'attends', 'attend',
];
/** "my uncle I live with has TB": who the relative lives with starts no new subject. */
const LIVES_WITH = ['i live with ', 'we live with ', 'who lives with us ', 'who lives with me ', 'that lives with us ', 'living with us ', 'who lives with them '];
const ADVERBS = ['', 'also ', 'just ', 'recently ', ...LIVES_WITH];

type RelationKind = 'family' | 'other';
const NOUNS: Record<RelationKind, readonly string[]> = { family: FAMILY_NOUNS, other: OTHER_NOUNS };

export interface RelationHead {
  tokens: readonly string[];
  kind: RelationKind;
}

/** Every head in the order relationDefs writes them out (family nouns first, each noun before its "'s"). */
export const RELATION_HEADS: readonly RelationHead[] = (['family', 'other'] as const).flatMap((kind) =>
  NOUNS[kind].flatMap((n) => [n, `${n}'s`].map((form): RelationHead => ({ tokens: form.split(' '), kind }))),
);

/** Every tail, as tokens, in relationDefs' order. */
export const RELATION_TAILS: readonly (readonly string[])[] = ADVERBS.flatMap((adv) => RELATION_VERBS.map((v) => `${adv}${v}`.split(' ')));

/** The definition of head + tail, as relationDefs writes it. */
export const relationDef = (tokens: readonly string[], kind: RelationKind): CueDef => ({ tokens, kind, direction: 'forward', list: 'strong', rewrite: null });

/** The family nouns' own cues: "in (my) family" after a finding, "mother's" before one. */
export function familyAnchorDefs(): CueDef[] {
  return FAMILY_NOUNS.flatMap((n): CueDef[] => [
    { tokens: ['in', n], kind: 'family', direction: 'backward', list: 'none', rewrite: null },
    ...['my', 'his', 'her', 'their'].map((whose): CueDef => ({ tokens: ['in', whose, n], kind: 'family', direction: 'backward', list: 'none', rewrite: null })),
    { tokens: [`${n}'s`], kind: 'family', direction: 'forward', list: 'none', rewrite: null },
  ]);
}

/** Every relation phrase written out, as the trie was once given them: the tests' oracle (cue-lexicon's allCueDefs). */
export function relationDefs(kind: RelationKind): CueDef[] {
  const out: CueDef[] = [];
  for (const n of NOUNS[kind]) {
    for (const form of [n, `${n}'s`]) {
      for (const adv of ADVERBS) {
        for (const v of RELATION_VERBS) out.push({ tokens: `${form} ${adv}${v}`.split(' '), kind, direction: 'forward', list: 'strong', rewrite: null });
      }
    }
    if (kind === 'family') {
      out.push({ tokens: ['in', n], kind, direction: 'backward', list: 'none', rewrite: null });
      for (const whose of ['my', 'his', 'her', 'their']) out.push({ tokens: ['in', whose, n], kind, direction: 'backward', list: 'none', rewrite: null });
      out.push({ tokens: [`${n}'s`], kind, direction: 'forward', list: 'none', rewrite: null });
    }
  }
  return out;
}
