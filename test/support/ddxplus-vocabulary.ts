import { defaultDdxplusLexiconPath, loadLexicon, type Lexicon } from '../../src/clinical-text/concepts/lexicon.js';
import { loadDdxplusDictionary } from '../../src/sources/ddxplus/dictionary.js';
import { noteVocabularies } from '../../kg-build/note-vocabularies.js';

/** The shipped DDXPlus question set read with the shipped lexicon (no phenotype vocabularies): what reading tests read against. */
export async function shippedDdxplusVocabulary(): Promise<{ lexicon: Lexicon; vocab: ReturnType<typeof noteVocabularies> }> {
  const lexicon = await loadLexicon(defaultDdxplusLexiconPath());
  if (!lexicon.ok) throw lexicon.error;
  return { lexicon: lexicon.value, vocab: noteVocabularies({ ddxplus: await loadDdxplusDictionary('datasets/ddxplus'), lexicon: lexicon.value, phenotypes: [] }) };
}
