import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NoteReaderDeps } from '../src/clinical-text/read-notes.js';
import { defaultNotePreparer } from '../src/clinical-text/prepare-note.js';
import { defaultDdxplusLexiconPath, loadLexicon } from '../src/clinical-text/concepts/lexicon.js';
import { loadDdxplusDictionary } from '../src/sources/ddxplus/dictionary.js';
import { hpoPath, loadHpo } from '../src/vocabularies/load-hpo.js';
import { noteVocabularies, type NoteVocabularies } from './note-vocabularies.js';
import type { VocabularyConcept } from '../src/clinical-text/vocabulary.js';

/**
 * The note reader a build uses by default (issue 24): the shipped DDXPlus question set with the
 * reviewed lexicon, HPO as installed by `npm run setup`, identifiers scrubbed and diagnosis
 * sections left out by the clinical-text module's shipped rules. A missing HPO file stops the
 * build with the setup command to run, rather than reading notes with less than it says.
 */
const PROJECT = fileURLToPath(new URL('..', import.meta.url));

export interface LoadedNoteReader {
  deps: NoteReaderDeps;
  vocabularies: NoteVocabularies['used'];
}

export async function loadNoteReader(opts: { ddxplusDir?: string; hpo?: string; sourceConcepts?: readonly VocabularyConcept[] } = {}): Promise<LoadedNoteReader> {
  const lexicon = await loadLexicon(defaultDdxplusLexiconPath());
  if (!lexicon.ok) throw lexicon.error;
  const hpo = await loadHpo(opts.hpo ?? hpoPath());
  if (!hpo.ok) throw hpo.error;
  const dict = await loadDdxplusDictionary(opts.ddxplusDir ?? join(PROJECT, 'datasets', 'ddxplus'));
  const vocab = noteVocabularies({ ddxplus: dict, lexicon: lexicon.value, phenotypes: [hpo.value], sourceConcepts: opts.sourceConcepts ?? [] });
  return { deps: { vocabulary: vocab.snapshot, lexicon: vocab.lexicon, prepare: await defaultNotePreparer() }, vocabularies: vocab.used };
}
