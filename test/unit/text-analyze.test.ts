import { strict as assert } from 'node:assert';
import { analyzeClinicalText, type TextFinding } from '../../src/clinical-text/analysis/index.js';

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
  ['no: scope stops at normal functions', 'No N/V, passing stool and flatus', ['-N/V', '+passing stool', '+flatus']],
  ['no: scope stops at normal findings', 'No fever, no vomiting, BMs normal, tolerating PO.', ['-fever', '-vomiting', '+BMs normal', '+tolerating PO']],
  ['history list stops at acute words', 'h/o CHF, acute severe dyspnea, orthopnea', ['+hist CHF', '+acute severe dyspnea', '+orthopnea']],
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
  ['one-word answers to questions', 'Fever? No. Cough? Yes.', ['-Fever', '+Cough']],
  ['a no on its own answers nothing', 'No. Fever.', ['+Fever']],
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
  ['neg for / pos for', 'Neg for chest pain; pos for dyspnea and orthopnea', ['-chest pain', '+dyspnea', '+orthopnea']],
  ['until ends the scope', 'No rash until today, now itchy hives', ['-rash', '+itchy hives']],
  ['"no PMH" is no finding and ends at "presents with"', 'Patient is a 45 yo M with no PMH who presents with CP x2h', ['+CP']],
  ['"has" continues the relative', 'My mother has diabetes and has had a stroke', ['+fam diabetes', '+fam stroke']],
  ['a reporting verb ends the relative', 'Mother had MI, reports chest pain', ['+fam MI', '+chest pain']],
  ['PMH of ... who presents with', '45F with PMH of HTN and DM who presents with 3 days of fever and cough', ['+hist HTN', '+hist DM', '+fever', '+cough']],
  ['no medications', 'No significant PMH. Takes no medications.', []],
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
  ["shoes don't fit", 'my shoes dont fit', ['+shoes dont fit']],
  ["haven't been able to", "I haven't been able to keep anything down", ["+haven't been able to keep anything down"]],
  ["can't ... without pain keeps the pain", "I'm not able to walk without pain", ['+not able to walk without pain']],
  ['never been this', 'never been this tired before', ['+never been this tired before']],
  ["I've never had anything like this", "I've never had anything like this", []],
  ["I'm not sure, I think I had", "I'm not sure but I think I had a fever last night", ['?fever last night']],
  ['derealization', "I felt like I wasn't in my body", ["+like I wasn't in my body"]],
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
  ['X vs Y', 'PE vs pneumonia', ['?PE', '?pneumonia']],
  ['concern for', 'concern for sepsis', ['?sepsis']],
  ['I think I have', 'I think I have the flu', ['?flu']],
  ['trailing question mark', 'Could this be pneumonia?', ['?pneumonia']],
  ['scared it is', "I'm scared it's my heart", ['?heart']],
  ['a question about own findings asserts them', 'What could cause chest pain and shortness of breath?', ['+chest pain', '+shortness of breath']],
  ['should I be worried about', 'Should I be worried about the lump in my neck?', ['+lump in my neck']],
  ['why do I get', 'Why do I get headaches every morning?', ['+headaches every morning']],
  // --- hypothetical
  ['return if', 'Return if fever or chest pain', ['~fever', '~chest pain']],
  ['if at the start', 'If she develops a rash, call us', ['~rash']],
  ['return if inside a sentence', 'She should return if she develops chest pain', ['~chest pain']],
  ['advised to come back if', 'Advised to come back if fever persists', ['~fever persists']],
  ['call us if', 'Call us if the rash spreads', ['~rash spreads']],
  ['return precautions over a list', 'Return precautions for chest pain, SOB', ['~chest pain', '~SOB']],
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
  ['years ago (a value) is history', 'I had a stroke 5 years ago, now dizzy', ['+hist stroke', '+dizzy']],
  ['weeks ago is not', 'Diarrheal illness 2 wks ago', ['+Diarrheal illness']],
  ['PMH header', 'PMH: HTN, DM', ['+hist HTN', '+hist DM']],
  // --- experiencer
  ['father has', 'father has diabetes', ['+fam diabetes']],
  ['family history of', 'family history of colon cancer', ['+fam colon cancer']],
  ['FHx header', 'FHx: MI', ['+fam MI']],
  ['FHx heading over a longer entry', 'FHx: mother MI at 50', ['+fam mother MI at 50']],
  ['under a family heading "sudden" is the relative\'s history', 'FHx: sudden cardiac death', ['+fam sudden cardiac death']],
  ['died young of', 'My mother died young of the heart', ['+fam heart']],
  ['a vagal manoeuvre is no breathing complaint', 'If I hold my breath and push it stops', ['+push it stops']],
  // The numbers are read as what they show (measurements.ts), never as words: "RA" after a saturation is room air.
  ['vital signs are measurements, read as the abnormal findings they show ("RA" after a saturation is room air); a normal one is its value', 'Accessory muscle use, SpO2 86% RA, HR 118, RR 26, BP 150/90', ['+Accessory muscle use', '+Hypoxemia', '+Elevated heart rate', '+Polypnea', '+systolic blood pressure 150 mmHg']],
  ['a temperature stays the fever finding beside other vitals', 'HR 118, T 38.9', ['+Elevated heart rate', '+fever']],
  ['a temperature with when it was taken is the fever finding', 'temp 38.6 overnight', ['+fever']],
  ['a range of temperatures is read by its highest', 'low-grade evening temps 37.8-38.2, productive cough', ['+fever', '+productive cough']],
  ['a lump that pops back in when lying down says nothing of lying down', 'it pops back in when I lie down', []],
  ['normal vital signs name no abnormality: their values, for binned measurements only', 'SpO2 98% RA, HR 78, RR 14, BP 122/76', ['+oxygen saturation 98 %', '+heart rate 78 /min', '+respiratory rate 14 /min', '+systolic blood pressure 122 mmHg']],
  ['RA as a diagnosis is untouched', 'Hx of RA on methotrexate', ['+hist RA on methotrexate']],
  ['without a condom is unprotected sex, not a negation', 'had sex without a condom last month', ['+sex without a condom last month']],
  ['with after a relieving verb stays in the finding', 'pain comes on with exertion and goes away with rest', ['+pain comes on with exertion', '+goes away with rest']],
  ['family history heading, then the patient', 'Family history: father MI at 48. Now chest pain.', ['+fam father MI at 48', '+chest pain']],
  ['PMH heading still stops at an acute finding', 'PMH: asthma, acute SOB', ['+hist asthma', '+acute SOB']],
  ['X in father', 'MI in father', ['+fam MI']],
  ['X in father at an age', 'MI in father at 52', ['+fam MI at 52']],
  ['X in his/her relative', 'Asthma in his mother', ['+fam Asthma']],
  ['runs in my family', 'Asthma runs in my family', ['+fam Asthma']],
  ['no family history', 'no family history of diabetes', ['-diabetes']],
  ['fam hx of', 'fam hx of asthma', ['+fam asthma']],
  ['FH header', 'FH: DM', ['+fam DM']],
  ['sister has', 'sister has lupus', ['+fam lupus']],
  ['family + history at once', 'brother had a collapsed lung last year', ['+fam hist collapsed lung']],
  ['my son (other)', 'my son has a cold', ['+other cold']],
  ['other, then the patient', "My son has a cold and I've been coughing", ['+other cold', '+coughing']],
  ['"and now I have" is the patient again', 'My husband has the flu and now I have a fever and body aches', ['+other flu', '+fever', '+body aches']],
  ['"and now my throat" is the patient again', 'My daughter had strep last week and now my throat hurts', ['+other strep last week', '+throat hurts']],
  ['relative before a colon', 'Brother: asthma. Sister: eczema.', ['+fam asthma', '+fam eczema']],
  ['a parent writing about a child: the child is the patient', 'My son was given a medicine for nausea yesterday and now his neck is twisted', ['+given a medicine for nausea yesterday', '+neck is twisted']],
  ['no personal history', 'Grandmother with breast cancer. No personal history of cancer.', ['+fam breast cancer', '-cancer']],
  ['sick contacts stay patient exposures', 'sick contacts at home', ['+sick contacts at home']],
  ['contact with someone who had', 'I was in contact with someone who had TB', ['+in contact with someone who had TB']],
  ['mother had, then the patient denies', 'My mother had a stroke. I deny headache', ['+fam stroke', '-headache']],
  // --- segmentation
  ['sentences, semicolons, newlines', 'Chest pain at rest. Shortness of breath; cough\nsweating, nausea', ['+Chest pain at rest', '+Shortness of breath', '+cough', '+sweating', '+nausea']],
  ['list marks', '- fever\n* sore throat\n1. runny nose\n2) headache', ['+fever', '+sore throat', '+runny nose', '+headache']],
  ['and splits symptoms', 'nausea and vomiting', ['+nausea', '+vomiting']],
  // Slash-joined words are a list (slashed-words.ts); shorthand and rates stay whole.
  ['a slash joins a list like "and"', 'fever/chills, severe pain/swelling R big toe', ['+fever', '+chills', '+severe pain', '+swelling R big toe']],
  ['a slash in shorthand or a rate splits nothing', 'N/V. h/o asthma. 3 drinks/day', ['+N/V', '+hist asthma', '+3 drinks/day']],
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
  // --- shorthand (session 16): "+" joins findings; "?" on an abbreviation questions that word only
  ['plus sign joins findings', 'pleuritic CP + SOB', ['+pleuritic CP', '+SOB']],
  ['query mark on an abbreviation', '?PTX 20M sudden L pleuritic CP + SOB', ['?PTX', '+sudden L pleuritic CP', '+SOB']],
  ['query mark on written words keeps its clause', '?septic arthritis, fever', ['?septic arthritis', '+fever']],
  ['normal intake is no finding', 'Eating and drinking. Drinking well.', []],
  ['words an embedding took for findings are dropped', 'he drinks ok. they pass after 10 min', []],
  ['the cold outside is no cold', 'chest tightness walking uphill or in the cold', ['+chest tightness walking uphill']],
  ['where one was born is no birth history', 'born and raised in rural Bolivia', ['+in rural Bolivia']],
  ['a note\'s setting is a heading, not a question', 'UC note: 29F, scratchy sore throat', ['+scratchy sore throat']],
  ['"won\'t lie flat" is an inability, not a denial', "won't lie flat", ["+won't lie flat"]],
  ['who a relative lives with starts no new subject', 'My uncle I live with was treated for TB last year.', ['+fam hist TB']],
  ['a failing treatment is no denial', 'my usual puffers not touching it, more phlegm', ['+usual puffers', '+more phlegm']],
  // --- session 17 (dev-e): a faculty "gone" is its loss; idioms and greetings
  ['a lost faculty is a finding, a gone symptom is not', "my appetite's gone and smell is gone; the pain is gone", ['+loss of appetite', '+loss of smell', '-pain']],
  ['"my voice has completely gone" is a lost voice', 'my voice has completely gone', ['+loss of voice']],
  ['"still isn\'t right" denies nothing after it', "he still isn't right after that gastro bug", ['+after that gastro bug']],
  ['a letter\'s greeting is no surgery', 'Dear surgery, I have a stuffy nose', ['+stuffy nose']],
  ['idioms read as what they mean', 'hair is falling out, bad breath, pulse is all over the shop', ['+hair loss', '+halitosis', '+irregular pulse']],
  ['pain-free now denies no pain; still working is no contact', 'chest pressure at rest, currently pain-free, still going to work', ['+chest pressure at rest']],
  ['"came back" is no back', 'the burning pain came back, it pops back in when I lie down', ['+burning pain']],
  ['empty text', '  \n ', []],
];

describe('text: analyzeClinicalText findings and assertions (table)', () => {
  for (const [what, input, want] of cases) {
    it(`${what}: ${JSON.stringify(input)}`, () => assert.deepEqual(findings(input), want));
  }
  it('has at least 80 cases', () => assert.ok(cases.length >= 80, String(cases.length)));
});

describe('clinical text analysis: a superlative is not a denial (issue 24)', () => {
  const read = (t: string) => analyzeClinicalText(t).findings.map((f) => [f.text, f.assertion]);
  it('"never had a headache this bad" says the headache is present', () => assert.deepEqual(read("I've never had a headache this bad."), [['headache', 'present']]));
  it('"never had chest pain like this before" says the chest pain is present', () => assert.deepEqual(read('Never had chest pain like this before'), [['chest pain', 'present']]));
  it('"never had a fever" and "never had asthma" stay denials', () => {
    assert.deepEqual(read('never had a fever'), [['fever', 'absent']]);
    assert.deepEqual(read("I've never had asthma"), [['asthma', 'absent']]);
  });
  it('"never had any heart trouble before" stays a denial (issue 48); "never had any pain like this" is still a superlative', () => {
    assert.deepEqual(read("He's never had any heart trouble before."), [['heart trouble', 'absent']]);
    assert.deepEqual(read("I've never had any chest pain like this before"), [['chest pain', 'present']]);
  });
});
