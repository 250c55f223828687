import type { FeatureNode } from '../../src/domain/kg.js';
import type { ConceptLexicon, LexiconEvidence } from '../../src/clinical-text/concepts/types.js';
import { buildSnapshot, type KgSnapshot } from '../../src/query/kg-snapshot.js';

/**
 * A DDXPlus-shaped miniature for concept-layer unit tests: a handful of evidences with the
 * lexicon's shape (yes/no concepts, a family-history concept, pain character values, body
 * sites with sides for the pain-location and radiation questions, a 0-10 scale) and a KG
 * snapshot whose features carry those codes.
 */
const ev = (canonical: string, more: Partial<LexiconEvidence> = {}): LexiconEvidence => ({
  canonical, forms: [], abbreviations: [], absentForms: [], context: 'patient', triggers: [], valueSet: null, values: {}, scale: null, ...more,
});

export const miniLexicon: ConceptLexicon = {
  version: 1,
  provenance: 'test fixture',
  sites: {
    V_29: { canonical: 'lower chest', forms: ['lower chest', 'chest'], side: null },
    V_101: { canonical: 'upper chest', forms: ['upper chest', 'chest'], side: null },
    V_30: { canonical: 'right biceps', forms: ['biceps', 'upper arm', 'arm'], side: 'R' },
    V_31: { canonical: 'left biceps', forms: ['biceps', 'upper arm', 'arm'], side: 'L' },
    V_129: { canonical: 'right ear', forms: ['ear'], side: 'R' },
    V_130: { canonical: 'left ear', forms: ['ear'], side: 'L' },
  },
  evidences: {
    E_91: ev('fever', { forms: ['febrile', 'pyrexia', 'running a temperature'], absentForms: ['afebrile'] }),
    E_201: ev('cough', { forms: ['coughing'] }),
    E_66: ev('shortness of breath', { forms: ['short of breath', 'dyspnea', "can't catch my breath"], abbreviations: ['SOB'] }),
    E_94: ev('sweating', { forms: ['diaphoretic', 'diaphoresis', 'sweaty'] }),
    E_79: ev('smoking', { forms: ['smoker', 'smokes cigarettes'], context: 'history' }),
    E_12: ev('known severe food allergy', { forms: ['food allergy'], treatmentForms: ['epipen'], context: 'history' }),
    E_80: ev('former smoker', { forms: ['ex-smoker', 'former smoker'], context: 'history' }),
    E_200: ev('family history of heart attack', { forms: ['heart attack', 'MI', 'myocardial infarction'], context: 'family' }),
    E_53: ev('pain', { forms: ['pain', 'ache'], abbreviations: ['CP'] }),
    E_54: ev('pain character', { triggers: ['pain', 'ache', 'CP'], values: { V_161: { canonical: 'sharp', forms: ['stabbing'] }, V_71: { canonical: 'heavy', forms: ['crushing', 'pressure'] } } }),
    E_55: ev('pain location', { triggers: ['pain', 'ache', 'hurts', 'CP'], valueSet: 'sites' }),
    E_57: ev('pain radiation', { triggers: ['radiating', 'radiates', 'spreads'], valueSet: 'sites' }),
    E_56: ev('pain intensity', { triggers: ['pain'], scale: { min: 0, max: 10 } }),
  },
};

function feature(code: string, valueCode: string | null, text: string): FeatureNode {
  return { id: `feat:${code}=${valueCode ?? ''}`, text, kind: 'ehr', code, valueCode, question: null, valueText: null, antecedent: null };
}

export function miniSnapshot(): KgSnapshot {
  const features = [
    feature('E_91', null, 'fever'), feature('E_201', null, 'cough'), feature('E_66', null, 'dyspnea'), feature('E_94', null, 'sweating'),
    feature('E_12', null, 'food allergy'), feature('E_79', null, 'smokes'), feature('E_80', null, 'former smoker'), feature('E_200', null, 'family MI'), feature('E_53', null, 'pain'),
    feature('E_54', 'V_161', 'pain character: sharp'), feature('E_54', 'V_71', 'pain character: heavy'),
    feature('E_55', 'V_29', 'pain location: lower chest'), feature('E_55', 'V_101', 'pain location: upper chest'),
    feature('E_55', 'V_129', 'pain location: ear(R)'), feature('E_55', 'V_130', 'pain location: ear(L)'),
    feature('E_57', 'V_30', 'pain radiates to: biceps(R)'), feature('E_57', 'V_31', 'pain radiates to: biceps(L)'),
    feature('E_56', '7', 'pain intensity (0-10): 7'),
    { id: 'feat:rash', text: 'Do you have a rash?', kind: 'ehr', code: null, valueCode: null, question: 'Do you have a rash?', valueText: null, antecedent: null } as FeatureNode,
  ];
  const diseases = [{ id: 'dis:a', name: 'A', subcategoryId: 'sub:s', icd10: null, recordCount: 1, aliases: ['A'] }];
  return buildSnapshot({
    categories: [{ id: 'cat:c', name: 'C' }],
    subcategories: [{ id: 'sub:s', name: 'S', categoryId: 'cat:c' }],
    diseases,
    features,
    manifestations: features.map((f) => ({ diseaseId: 'dis:a', featureId: f.id, prevalence: 1, count: 1, source: 'ehr' as const })),
  });
}
