/**
 * One-word negatives ("afebrile" = no fever) and one-word history ("ex-smoker"): the word
 * names a finding of its own, so it becomes a finding with its own assertion.
 */
export interface SingleWordCue {
  text: string;
  assertion: 'absent' | 'present';
  historical: boolean;
}

const absent = (text: string): SingleWordCue => ({ text, assertion: 'absent', historical: false });

export const SINGLE_WORD: ReadonlyMap<string, SingleWordCue> = new Map<string, SingleWordCue>([
  ['afebrile', absent('fever')], ['apyrexial', absent('fever')], ['apyrexic', absent('fever')],
  ['painless', absent('pain')], ['pain-free', absent('pain')], ['painfree', absent('pain')],
  ['unvaccinated', absent('vaccinated')], ['non-vaccinated', absent('vaccinated')], ['unimmunized', absent('vaccinated')],
  ['nonproductive', absent('sputum')], ['non-productive', absent('sputum')],
  ['nontender', absent('tenderness')], ['non-tender', absent('tenderness')],
  ['nonradiating', absent('radiation')], ['non-radiating', absent('radiation')],
  ['nonexertional', absent('exertional')], ['non-exertional', absent('exertional')],
  ['nonpleuritic', absent('pleuritic')], ['non-pleuritic', absent('pleuritic')],
  ['nonsmoker', absent('smoking')], ['non-smoker', absent('smoking')],
  ['nondrinker', absent('alcohol')], ['non-drinker', absent('alcohol')], ['teetotal', absent('alcohol')],
  ['nonpruritic', absent('itching')], ['non-pruritic', absent('itching')], ['non-itchy', absent('itching')],
  ['nonbloody', absent('blood')], ['non-bloody', absent('blood')],
  ['nondiaphoretic', absent('diaphoresis')], ['non-diaphoretic', absent('diaphoresis')],
  ['atraumatic', absent('trauma')], ['afebrile/normotensive', absent('fever')],
  ['ex-smoker', { text: 'smoker', assertion: 'present', historical: true }],
  ['exsmoker', { text: 'smoker', assertion: 'present', historical: true }],
]);
