/**
 * Short labels for the 15 non-boolean DDXPlus questions, so a finding reads well on its own
 * and stays unambiguous across questions ("pain location: lower chest" vs
 * "rash location: lower chest"). Written by hand from `question_en` in release_evidences.json;
 * any code missing here falls back to the full question text.
 */
export const SHORT_LABELS: Readonly<Record<string, string>> = {
  E_54: 'pain character',
  E_55: 'pain location',
  E_56: 'pain intensity (0-10)',
  E_57: 'pain radiates to',
  E_58: 'pain location precision (0-10)',
  E_59: 'pain onset speed (0-10)',
  E_130: 'rash color',
  E_131: 'lesions peel off',
  E_132: 'rash swelling (0-10)',
  E_133: 'rash location',
  E_134: 'rash pain intensity (0-10)',
  E_135: 'lesions larger than 1cm',
  E_136: 'itching severity (0-10)',
  E_152: 'swelling location',
  E_204: 'travel out of the country in the last 4 weeks',
};
