import assert from 'node:assert/strict';
import { matchConcepts } from '../../src/clinical-text/concepts/match-concepts.js';
import { decompose } from '../../src/clinical-text/decompose.js';
import { defaultDdxplusLexiconPath, loadLexicon, type Lexicon } from '../../src/clinical-text/concepts/lexicon.js';
import { loadDdxplusDictionary } from '../../src/sources/ddxplus/dictionary.js';
import { noteVocabularies } from '../../kg-build/note-vocabularies.js';

/** The shipped DDXPlus question set read with the shipped lexicon (no phenotype vocabularies): what reading tests read against. */
export async function shippedDdxplusVocabulary(): Promise<{ lexicon: Lexicon; vocab: ReturnType<typeof noteVocabularies> }> {
  const lexicon = await loadLexicon(defaultDdxplusLexiconPath());
  if (!lexicon.ok) throw lexicon.error;
  return { lexicon: lexicon.value, vocab: noteVocabularies({ ddxplus: await loadDdxplusDictionary('datasets/ddxplus'), lexicon: lexicon.value, phenotypes: [] }) };
}

/**
 * A text as the reading tests read it: decomposed, then matched against `vocab` (no embedding
 * fallback); each match as "+feature" or "-feature" (absent).
 */
export function readerOf(vocab: Pick<ReturnType<typeof noteVocabularies>, 'snapshot' | 'lexicon'>): (text: string) => string[] {
  return (text) => {
    const { findings } = decompose({ text, findings: [] });
    const m = matchConcepts({ snapshot: vocab.snapshot, lexicon: vocab.lexicon, phraseEmbedder: null }, { findings, text });
    return [...m.values()].flat().map((x) => `${x.polarity === 'absent' ? '-' : '+'}${x.featureText}`);
  };
}

/** Some reading matches `re` (the readings are the failure message). */
export const hasReading = (got: string[], re: RegExp) => assert.ok(got.some((x) => re.test(x)), got.join(' | '));
/** No reading matches `re`. */
export const lacksReading = (got: string[], re: RegExp) => assert.ok(!got.some((x) => re.test(x)), got.join(' | '));

/** The reader of the shipped DDXPlus question set with its lexicon (readerOf over shippedDdxplusVocabulary). */
export async function shippedReader(): Promise<(text: string) => string[]> {
  return readerOf((await shippedDdxplusVocabulary()).vocab);
}
