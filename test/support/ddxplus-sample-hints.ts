import { ddxplusSampleSnapshot } from '../../bench/scale/ddxplus-snapshot.js';
import { ddxplusAnswerTypes } from '../../src/followups/ddxplus-hints.js';
import { loadDdxplusDictionary } from '../../src/sources/ddxplus/dictionary.js';

/** The shipped DDXPlus sample's snapshot and `cases` of its records, with the answer types of its questions (the follow-up tests' input). */
export async function ddxplusSampleWithHints(cases: number) {
  const sample = await ddxplusSampleSnapshot({ cases });
  const hints = ddxplusAnswerTypes((await loadDdxplusDictionary('datasets/ddxplus')).evidences);
  return { ...sample, hints };
}
