import { strict as assert } from 'node:assert';
import { analyzeClinicalText, type TextFinding } from '../../src/query/text/index.js';

/**
 * Table-driven checks of the clinical text analyser (issue 17). Each finding is written
 * compactly: sign (+ present, - absent, ? possible, ~ hypothetical), then "fam " / "other "
 * for a non-patient experiencer and "hist " for a historical finding, then the text.
 */
const SIGN = { present: '+', absent: '-', possible: '?', hypothetical: '~' } as const;
const show = (f: TextFinding) =>
  `${SIGN[f.assertion]}${f.experiencer === 'family' ? 'fam ' : f.experiencer === 'other' ? 'other ' : ''}${f.temporality === 'historical' ? 'hist ' : ''}${f.text}`;
const findings = (text: string) => analyzeClinicalText(text).findings.map(show);

const cases: [string, string, string[]][] = [
  // [what, input, expected findings]
  // --- the examples
  ['subject + not', "I'm not short of breath", ['-short of breath']],
  ['subject + don\'t', "I don't smoke", ['-smoke']],
  ['"I have no" over an or-list', 'I have no numbness or tingling anywhere', ['-numbness', '-tingling']],
  ['did not, no subject', 'Did not eat fish', ['-eat fish']],
  ['family experiencer', 'mother had an MI', ['+fam MI']],
  ['pseudo-negation: no appetite', 'no appetite', ['+loss of appetite']],
  ['README example', 'Sharp chest pain, worse when breathing in, better leaning forward. No cough.', ['+Sharp chest pain', '+worse when breathing in', '+better leaning forward', '-cough']],
  ['lay sentence: three findings', "I've had a fever and my throat hurts when I swallow and I keep coughing", ['+fever', '+throat hurts when I swallow', '+coughing']],
  ['clinician shorthand', '61M smoker, crushing CP radiating to L arm, diaphoretic, SOB', ['+smoker', '+crushing CP radiating to L arm', '+diaphoretic', '+SOB']],
  // --- negation cues
  ['no', 'No fever.', ['-fever']],
  ['denies', 'Denies chest pain', ['-chest pain']],
  ['negative for', 'Negative for chills', ['-chills']],
  ['without', 'without cough', ['-cough']],
  ['w/o', 'CP w/o SOB', ['+CP', '-SOB']],
  ['never', 'I never smoked', ['-smoked']],
  ['I am not', 'I am not dizzy', ['-dizzy']],
  ["haven't had any", "I haven't had any diarrhea", ['-diarrhea']],
  ["hasn't been", "She hasn't been vomiting", ['-vomiting']],
  ["didn't", "I didn't vomit", ['-vomit']],
  ["doesn't have", "He doesn't have a rash", ['-rash']],
  ["don't have", "I don't have chest pain", ['-chest pain']],
  ['does not have', 'The patient does not have a rash', ['-rash']],
  ['not + adjective', 'not vaccinated', ['-vaccinated']],
  ['neither/nor', 'Neither fever nor chills', ['-fever', '-chills']],
  ['no X or Y', 'no fever, chills or cough', ['-fever', '-chills', '-cough']],
  ['denies list without a closing or', 'Denies fever, chills, N/V', ['-fever', '-chills', '-N/V']],
  ['no + bare list to the end', 'No cough, chest pain', ['-cough', '-chest pain']],
  ['no: scope stops at a clause with a value', 'No fever, cough x3 days', ['-fever', '+cough']],
  ['free of', 'free of pain', ['-pain']],
  ['absent before', 'absent pulses', ['-pulses']],
  ['resolved after', 'fever resolved', ['-fever']],
  ['resolved after a list', 'fever and chills resolved', ['-fever', '-chills']],
  ['resolved in the next clause', 'Fever, now resolved', ['-Fever']],
  ['negation inside the clause after the subject', 'Pain does not radiate', ['+Pain', '-radiate']],
  ['cough without sputum', 'Cough without sputum', ['+Cough', '-sputum']],
  ['no h/o', 'No h/o asthma', ['-asthma']],
  ['have not had any X or Y', 'I have not had any fever or chills', ['-fever', '-chills']],
  ['there is no', 'There is no swelling in my legs', ['-swelling in my legs']],
  ['do not X or Y', 'I do not smoke or drink', ['-smoke', '-drink']],
  ['two negated clauses', "I'm not coughing and I don't have a fever", ['-coughing', '-fever']],
  ['no recent X, Y or Z (exposures too)', 'No recent travel, sick contacts or new medications', ['-travel', '-sick contacts', '-new medications']],
  ['"Negative:" heading a list', 'Negative: fever, chills', ['-fever', '-chills']],
  ['answer after a dash', 'cough - no', ['-cough']],
  ['answer after a colon', 'fever: none', ['-fever']],
  ['never been', 'I have never been vaccinated', ['-vaccinated']],
  ['typed without apostrophes', 'I dont have a fever, it doesnt hurt and I havent vomited', ['-fever', '-hurt', '-vomited']],
  ['a typo in denies', 'denys chest pain', ['-chest pain']],
  ['no + slashed abbreviation', 'No N/V/D', ['-N/V/D']],
  ['a bare no-answer word is no finding', 'nope, no fever', ['-fever']],
  // --- scope ends
  ['but ends the scope', 'No fever but a cough', ['-fever', '+cough']],
  ['comma + but', 'no fever, but a cough', ['-fever', '+cough']],
  ['however', 'Denies fever, however reports chills', ['-fever', '+chills']],
  ['although', 'No rash although itchy skin', ['-rash', '+itchy skin']],
  ['except', 'Negative for everything except cough', ['-everything', '+cough']],
  ['positive verb ends a list', 'Denies fever, reports cough', ['-fever', '+cough']],
  ['new subject ends the scope', "I don't have a fever and I keep coughing", ['-fever', '+coughing']],
  ['new sentence ends the scope', 'No fever. Cough.', ['-fever', '+Cough']],
  ['not: comma list needs a closing or', "I don't have fever, cough for a week", ['-fever', '+cough']],
  ['which ends the scope', 'no pain which is good', ['-pain', '+good']],
  // --- single-word negatives
  ['afebrile', 'afebrile', ['-fever']],
  ['he is afebrile', 'He is afebrile', ['-fever']],
  ['painless', 'painless jaundice', ['-pain', '+jaundice']],
  ['unvaccinated', 'unvaccinated', ['-vaccinated']],
  ['nonproductive cough', 'nonproductive cough', ['-sputum', '+cough']],
  ['non-tender', 'abdomen non-tender', ['+abdomen', '-tenderness']],
  ['ex-smoker', 'ex-smoker', ['+hist smoker']],
  // --- pseudo-negations stay present
  ['not hungry', "I'm not hungry", ['+loss of appetite']],
  ["can't catch my breath", "I can't catch my breath", ["+can't catch my breath"]],
  ["can't stop coughing", "I can't stop coughing", ["+can't stop coughing"]],
  ['not able to swallow', 'not able to swallow', ['+not able to swallow']],
  ['no better', 'cough, no better with Tylenol', ['+cough', '+no better with Tylenol']],
  ['not only', 'not only a cough but also fever', ['+cough', '+fever']],
  ['no change', 'no change in stool', ['+no change in stool']],
  ['no improvement', 'no improvement with rest', ['+no improvement with rest']],
  ['gram negative', 'gram negative rods', ['+gram negative rods']],
  ['no longer: historical, present', 'I no longer smoke', ['+hist smoke']],
  ['no energy', 'I have no energy', ['+lack of energy']],
  // --- possible
  ['?pneumonia', '?pneumonia', ['?pneumonia']],
  ['possible', 'possible pneumonia', ['?pneumonia']],
  ['probable', 'probable UTI', ['?UTI']],
  ['r/o list', 'r/o PE, ACS', ['?PE', '?ACS']],
  ['rule out', 'rule out MI', ['?MI']],
  ['questionable', 'questionable rash', ['?rash']],
  ['maybe', 'maybe a fever', ['?fever']],
  ['cannot rule out is possible, not absent', 'cannot rule out pneumonia', ['?pneumonia']],
  ['ruled out is absent', 'PE ruled out', ['-PE']],
  // --- hypothetical
  ['return if', 'Return if fever or chest pain', ['~fever', '~chest pain']],
  ['if at the start', 'If she develops a rash, call us', ['~rash', '~call us']],
  ['if I: a condition, not hypothetical', 'If I walk I get chest pain', ['+walk I get chest pain']],
  ['in case of', 'in case of bleeding', ['~bleeding']],
  ['should she', 'should she have chest pain', ['~chest pain']],
  // --- historical
  ['h/o list', 'h/o HTN, DM, CAD', ['+hist HTN', '+hist DM', '+hist CAD']],
  ['history of', 'history of asthma', ['+hist asthma']],
  ['hx of', 'hx of DVT', ['+hist DVT']],
  ['previous', 'previous stroke', ['+hist stroke']],
  ['prior, then now', 'Prior MI, now with chest pain', ['+hist MI', '+chest pain']],
  ['used to', 'I used to smoke', ['+hist smoke']],
  ['last year (after)', 'I had pneumonia last year', ['+hist pneumonia']],
  ['as a child (after)', 'asthma as a child', ['+hist asthma']],
  ['s/p', 's/p appendectomy', ['+hist appendectomy']],
  ['PMH header', 'PMH: HTN, DM', ['+hist HTN', '+hist DM']],
  // --- experiencer
  ['father has', 'father has diabetes', ['+fam diabetes']],
  ['family history of', 'family history of colon cancer', ['+fam colon cancer']],
  ['FHx header', 'FHx: MI', ['+fam MI']],
  ['X in father', 'MI in father', ['+fam MI']],
  ['no family history', 'no family history of diabetes', ['-diabetes']],
  ['fam hx of', 'fam hx of asthma', ['+fam asthma']],
  ['FH header', 'FH: DM', ['+fam DM']],
  ['sister has', 'sister has lupus', ['+fam lupus']],
  ['family + history at once', 'brother had a collapsed lung last year', ['+fam hist collapsed lung']],
  ['my son (other)', 'my son has a cold', ['+other cold']],
  ['other, then the patient', "My son has a cold and I've been coughing", ['+other cold', '+coughing']],
  ['sick contacts stay patient exposures', 'sick contacts at home', ['+sick contacts at home']],
  ['contact with someone who had', 'I was in contact with someone who had TB', ['+in contact with someone who had TB']],
  ['mother had, then the patient denies', 'My mother had a stroke. I deny headache', ['+fam stroke', '-headache']],
  // --- segmentation
  ['sentences, semicolons, newlines', 'Chest pain at rest. Shortness of breath; cough\nsweating, nausea', ['+Chest pain at rest', '+Shortness of breath', '+cough', '+sweating', '+nausea']],
  ['list marks', '- fever\n* sore throat\n1. runny nose\n2) headache', ['+fever', '+sore throat', '+runny nose', '+headache']],
  ['and splits symptoms', 'nausea and vomiting', ['+nausea', '+vomiting']],
  ['with joins separate symptoms', 'fever with chills', ['+fever', '+chills']],
  ['worse with keeps its head', 'pain worse with exertion', ['+pain worse with exertion']],
  ['adjectives before and keep their head', 'sharp and stabbing pain', ['+sharp and stabbing pain']],
  ['body sites after and stay with the pain', 'pain in the left arm and jaw', ['+pain in the left arm and jaw']],
  ['on and off is one expression', 'headache on and off', ['+headache on and off']],
  ['abbreviations are not split', 'N/V, h/o GERD, c/o CP x3d, s/p CABG', ['+N/V', '+hist GERD', '+CP', '+hist CABG']],
  ['decimals do not end sentences', 'Temp 38.5. Cough', ['+fever', '+Cough']],
  ['Dr. does not end a sentence', 'Seen by Dr. Smith for cough', ['+Seen by Dr. Smith for cough']],
  ['also', 'I have a headache, also a runny nose', ['+headache', '+runny nose']],
  ['demographics are no findings', '62M', []],
  ['gibberish stays one finding', 'asdf qwer', ['+asdf qwer']],
  ['empty text', '  \n ', []],
];

describe('text: analyzeClinicalText findings and assertions (table)', () => {
  for (const [what, input, want] of cases) {
    it(`${what}: ${JSON.stringify(input)}`, () => assert.deepEqual(findings(input), want));
  }
  it('has at least 80 cases', () => assert.ok(cases.length >= 80, String(cases.length)));
});
