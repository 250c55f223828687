import assert from 'node:assert/strict';
import shipped from '../../../src/vocabularies/phenotype-forms.json' with { type: 'json' };
import { loadHpo } from '../../../src/vocabularies/load-hpo.js';
import { noteVocabularies } from '../../../kg-build/note-vocabularies.js';
import { hasReading, readerOf, shippedDdxplusVocabulary } from '../../support/ddxplus-vocabulary.js';
import { loadDdxplusDictionary } from '../../../src/sources/ddxplus/dictionary.js';
import type { Vocabulary } from '../../../src/clinical-text/vocabulary.js';

// The HPO release is read once for the file (both describes read the same installed release;
// reading it is about half a second of CPU, issue 49).
let hpoRelease: Promise<Vocabulary> | null = null;
function installedHpo(): Promise<Vocabulary> {
  hpoRelease ??= loadHpo().then((hpo) => {
    assert.ok(hpo.ok, 'the HPO release installed by npm run setup');
    return hpo.value;
  });
  return hpoRelease;
}

/**
 * Clinicians' wording of findings that HPO names by its ontology label (src/vocabularies/phenotype-forms.json,
 * issue 47 round 4): sentences written for this test in the style of real notes' HPI, exam and imaging lines.
 */
describe('clinical forms of HPO terms: the shipped file', () => {
  it('names HPO terms, each form lower case and listed once per term', () => {
    for (const [code, forms] of Object.entries(shipped.forms)) {
      assert.match(code, /^HP:\d{7}$/);
      assert.equal(new Set(forms).size, forms.length, code);
      for (const f of forms) assert.equal(f, f.toLowerCase(), `${code}: ${f}`);
    }
  });

  it('every term it names is in the installed HPO release', async function () {
    this.timeout(60_000);
    const codes = new Set((await installedHpo()).concepts.map((c) => c.code));
    assert.deepEqual(Object.keys(shipped.forms).filter((c) => !codes.has(c)), []);
  });
});

describe('clinical forms of HPO terms: read from notes', () => {
  let read: (text: string) => string[];
  before(async function () {
    this.timeout(60_000);
    const { lexicon } = await shippedDdxplusVocabulary();
    const vocab = noteVocabularies({ ddxplus: await loadDdxplusDictionary('datasets/ddxplus'), lexicon, phenotypes: [await installedHpo()] });
    read = readerOf(vocab);
  });
  const has = hasReading;

  it('an ear exam: the TM erythematous with fluid behind it', () => {
    has(read('HEENT: Left TM erythematous with fluid behind the TM.'), /^\+Abnormal tympanic membrane morphology$/);
  });

  it('a chest film and lung exam: infiltrate, bibasilar crackles', () => {
    has(read('Chest x-ray shows a right lower lobe infiltrate.'), /^\+Pulmonary infiltrates$/);
    has(read('Lungs: bibasilar crackles.'), /^\+Crackles$/);
  });

  it('the heart: an S3 gallop, an enlarged cardiac silhouette', () => {
    has(read('Chest film: enlarged cardiac silhouette.'), /^\+Cardiomegaly$/);
    has(read('An S3 gallop is heard.'), /^\+Third heart sound$/);
  });

  it('the nervous system: a magnetic gait, an enhancing lesion', () => {
    has(read('MRI of the brain shows a ring-enhancing lesion.'), /^\+Neoplasm of the central nervous system$/);
    has(read('He walks with a magnetic gait.'), /^\+Gait disturbance$/);
  });

  it('the skin, the gallbladder, the back and the knee', () => {
    has(read('There is a fluctuant area on the thigh.'), /^\+Cutaneous abscess$/);
    has(read('Ultrasound shows pericholecystic fluid.'), /^\+Cholecystitis$/);
    has(read('MRI shows a disc herniation at L4-L5.'), /^\+Herniation of intervertebral nuclei$/);
    has(read('Knee: crepitus with range of motion.'), /^\+Joint crepitus$/);
  });
});
