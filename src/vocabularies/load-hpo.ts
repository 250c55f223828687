import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Vocabulary } from '../clinical-text/vocabulary.js';
import { ArtifactError, errorMessage } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import { HPO_PHENOTYPIC_ABNORMALITY, parseHpoObo } from './hpo-obo.js';
import { withClinicalForms } from './phenotype-forms.js';

/**
 * Where the Human Phenotype Ontology is read from, and reading it. scripts/fetch-hpo.sh (run by
 * `npm run setup`) installs hp.obo into <project>/.vocab/hpo/; nothing is fetched here, so a
 * missing file is an error value naming the setup step, never a download.
 */

/** The project root of this checkout (src/vocabularies/../..). */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Environment variable naming another hp.obo (absolute, or relative to the current directory). */
export const HPO_OBO_ENV = 'DXGRAPH_HPO_OBO';

/** A vocabulary file that is missing, unreadable or not what it should be: an ArtifactError naming the path. */
export type VocabularyMissing = ArtifactError;

/** The hp.obo to read: $DXGRAPH_HPO_OBO when set, else <projectRoot>/.vocab/hpo/hp.obo. */
export function hpoPath(projectRoot: string = PROJECT_ROOT, env: NodeJS.ProcessEnv = process.env): string {
  const override = env[HPO_OBO_ENV]?.trim();
  return override ? resolve(override) : join(projectRoot, '.vocab', 'hpo', 'hp.obo');
}

const setupHint = 'run `npm run setup` (or `bash scripts/fetch-hpo.sh`) to install it, or point DXGRAPH_HPO_OBO at a copy of hp.obo';

/** Read and parse hp.obo. A missing or unreadable file, or one with no HPO phenotype terms, is an error value. */
export async function loadHpo(path: string = hpoPath()): Promise<Result<Vocabulary, VocabularyMissing>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const what = code === 'ENOENT' ? 'is missing' : `cannot be read (${errorMessage(e)})`;
    return err(new ArtifactError(path, `Human Phenotype Ontology ${path} ${what}; ${setupHint}`, { cause: e }));
  }
  const vocabulary = parseHpoObo(text);
  if (vocabulary.concepts.length === 0) {
    return err(new ArtifactError(path, `${path} is not the Human Phenotype Ontology in OBO format (no terms under ${HPO_PHENOTYPIC_ABNORMALITY} Phenotypic abnormality); ${setupHint}`));
  }
  // Clinicians' forms of a few exam, ECG and imaging signs (phenotype-forms.json).
  return ok(withClinicalForms(vocabulary));
}
