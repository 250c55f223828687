import assert from 'node:assert/strict';
import type { FeatureNode } from '../../src/domain/kg.js';
import { conceptName, featureConcept } from '../../kg-build/hierarchy-names.js';

/** Issue 24: a notes KG's groups are named by clinical phrases, never by a stray word of the notes. */
const f = (text: string, vocabulary: string | null): FeatureNode => ({ id: `feat:${text}`, text, kind: 'ehr', code: vocabulary === 'HPO' ? 'HP:1' : null, valueCode: null, question: null, valueText: null, antecedent: null, vocabulary });

describe('hierarchy names of a notes KG (issue 24)', () => {
  it('an emergent abbreviation, vague word or relative\'s phrase names nothing', () => {
    for (const t of ['ua', 'le', 'worse', 'positive', 'fh breast cancer']) assert.equal(featureConcept(f(t, 'emergent'), null), null, t);
  });
  it('an emergent clinical phrase and an HPO label do', () => {
    assert.equal(featureConcept(f('rebound tenderness', 'emergent'), null), 'rebound tenderness');
    assert.equal(featureConcept(f('Photophobia', 'HPO'), null), 'Photophobia');
  });
  it('a group name skips the vague ones and takes the next readable concepts', () => {
    assert.equal(conceptName([f('worse', 'emergent'), f('ua', 'emergent'), f('flank pain', 'emergent'), f('Dysuria', 'HPO')], 2, null), 'flank pain · Dysuria');
  });
});
