import assert from 'node:assert/strict';
import type { FeatureNode, ManifestationEdge } from '../../src/domain/kg.js';
import { notesLearntPerDisease } from '../../kg-build/notes-learnt.js';
import { notesLearntLines } from '../../kg-build/report.js';

/** What notes taught each disease (issue 47): the build report's per-disease lines. */
const feature = (id: string, text: string, fromNotes: boolean): FeatureNode => ({ id, text, kind: 'ehr', ...(fromNotes ? { fromNotes: true } : {}) }) as FeatureNode;
const edge = (diseaseId: string, featureId: string, count: number): ManifestationEdge => ({ diseaseId, featureId, count, prevalence: count / 5, source: 'ehr' });

describe('kg-build notes-learnt: what the notes taught each disease', () => {
  const features = [feature('f:crackles', 'Crackles', true), feature('f:fever', 'Fever', true), feature('f:jvd', 'Jugular venous distention', true), feature('f:code', 'coded cough', false)];
  const manifestations = [edge('d:pna', 'f:fever', 3), edge('d:pna', 'f:crackles', 4), edge('d:pna', 'f:code', 5), edge('d:chf', 'f:jvd', 2), edge('d:chf', 'f:crackles', 2)];
  const noted = new Map([['d:pna', 5], ['d:chf', 4], ['d:gout', 3], ['d:coded-only', 0]]);

  it('counts per disease with notes only the features notes taught, best-backed first', () => {
    const learnt = notesLearntPerDisease({ noted, features, manifestations });
    assert.deepEqual(learnt.map((d) => d.diseaseId), ['d:chf', 'd:gout', 'd:pna'], 'diseases without notes are not listed');
    const pna = learnt.find((d) => d.diseaseId === 'd:pna')!;
    assert.equal(pna.features, 2, 'the coded feature is not one notes taught');
    assert.deepEqual(pna.top, ['Crackles', 'Fever']);
    // A tie in records is broken by text, so the report is the same on every build.
    assert.deepEqual(learnt.find((d) => d.diseaseId === 'd:chf')!.top, ['Crackles', 'Jugular venous distention']);
    assert.equal(learnt.find((d) => d.diseaseId === 'd:gout')!.features, 0);
  });

  it('the report names the diseases, fewest features first, and says how many learnt nothing', () => {
    const learnt = notesLearntPerDisease({ noted, features, manifestations }, 1);
    const kg = { diseases: [{ id: 'd:pna', name: 'Pneumonia' }, { id: 'd:chf', name: 'Heart failure' }, { id: 'd:gout', name: 'Gout' }] };
    const lines = notesLearntLines({ kg, notes: { support: { learnt } } } as unknown as Parameters<typeof notesLearntLines>[0]);
    assert.match(lines[0]!, /1 of 3 diseases with notes have no feature learnt from notes/);
    assert.deepEqual(lines.slice(1), ['  Gout: 3 notes, 0 features', '  Heart failure: 4 notes, 2 features: Crackles', '  Pneumonia: 5 notes, 2 features: Crackles']);
  });
});
