/**
 * The age patterns scanDemographics reads (demographics.ts): clinician shorthand ("61M", "45 y/o F"),
 * lay wording ("I'm 34", "my grandma is 82") and a carer naming the relative ("my mother 82 years").
 * Each match carries the age and, where it names one, the person (group "noun"), whose sex sexOf reads.
 */

export const MALE_NOUNS = ['male', 'man', 'boy', 'gentleman', 'son', 'father', 'dad', 'grandfather', 'grandpa', 'grandad', 'granddad', 'husband', 'brother', 'uncle'];
export const FEMALE_NOUNS = ['female', 'woman', 'girl', 'lady', 'daughter', 'mother', 'mom', 'mum', 'grandmother', 'grandma', 'nan', 'nana', 'nanna', 'gran', 'granny', 'wife', 'sister', 'aunt'];
const NEUTRAL_NOUNS = ['baby', 'child', 'kid', 'toddler', 'infant', 'newborn'];
export const RELATIVES = ['son', 'daughter', 'boy', 'girl', 'father', 'dad', 'grandfather', 'grandpa', 'grandad', 'granddad', 'husband', 'brother', 'uncle', 'mother', 'mom', 'mum', 'grandmother', 'grandma', 'nan', 'nana', 'nanna', 'gran', 'granny', 'wife', 'sister', 'aunt', ...NEUTRAL_NOUNS];
const NOUN = `(?:baby\\s+)?(?:${[...MALE_NOUNS, ...FEMALE_NOUNS, ...NEUTRAL_NOUNS].join('|')}|M|F)`;
const TAIL = String.raw`(?:\s*,?\s*(?<noun>${NOUN})\b)?`;
const UNIT = String.raw`(?<unit>years?|yrs?|y|months?|mos?|mo|weeks?|wks?|days?)`;
/** A child's age said without "old" ("my son is 18 months"): months, weeks or days only, so "is 34 years" stays as it was. */
const CHILD_UNIT = String.raw`(?<unit>months?|mos?|weeks?|wks?|days?)`;
/** What may follow a bare age ("I'm 34," / "He's 16.") so "I'm 34 weeks pregnant" is no age. */
const AGE_END = String.raw`(?=\s*(?:[,.;!)]|$|\s+(?:and|but|with|w\/|yrs?|years?|yo|y\/o|${NOUN})\b))`;

/** The opening of a carer's message: the start of the text, after a greeting ("Hey, Dad (58) is …"). */
const OPENING = String.raw`^\s*(?:(?:hi|hey|hello)\b[^,.\n]{0,20}[,.]\s*)?`;
const REL = `(?<noun>${RELATIVES.join('|')})`;
/** What a number counts or measures when it is no age ("Mum 10 units insulin", "Dad 3 falls", "Son 39 temp", "Mum 120 bpm"). */
const COUNTED = 'units? tablets? tabs? pills? capsules? puffs? doses? drops? sachets? ml mls mmol mcg g grams? stones? st oz bpm beats? breaths? temp temperature nights? falls? episodes? attacks? fits? stents? cigarettes? cigs? beers? drinks? pints? glasses? bottles? in of per out over';
/** What follows "N years" when N is how long since something, or how long a condition or habit has lasted. */
const SINCE_OR_LASTED = String.raw`(?:post|after|since|on|of|history|hx|known|ex|smok\w*|diabet\w*|asthma\w*|hypertens\w*|epilep\w*|insulin\w*|dialysis)`;
/** Words after a number that make it a time or an amount, not an age ("Son 3 days ago", "Mum 2 weeks post op"). */
const NOT_AGE = String.raw`(?!\s*(?:(?:years?|yrs?)\s+(?:ago|${SINCE_OR_LASTED})|ago|older|younger|before|later|earlier|back|days?|d|hours?|hrs?|h|weeks?|wks?|months?|mos?|times|x|kg|lbs?|mg|mins?|minutes?|degrees?|${COUNTED.split(' ').join('|')})\b|\s*(?:%|\/|\.\d|°))`;
/**
 * An age in years; not a time since something ("my wife 3 years post chemo", "2 years after his stroke"),
 * nor how long a condition or habit has lasted ("my husband 20 years smoker", "my mother 10 years diabetic",
 * "Dad 15 years on insulin", "30 years of smoking").
 */
const YEARS = String.raw`(?<unit>years?|yrs?|yo|y\/o)(?:\s+old)?\b(?!\s+${SINCE_OR_LASTED}\b)`;

/**
 * A carer naming the relative, then the age: read first, but only where no other pattern reads an age
 * outside them (in "62 year old woman … my mother 82 years had heart failure" the mother is family
 * history: neither her age nor she as the patient).
 */
export const RELATIVE_THEN_AGE: RegExp[] = [
  // A carer naming the relative, then the age without "is … old" (issue 48): "my mother 82 years", "my
  // daughter 3 yrs old", "my father age 60", "my mother (age 45)"; a bare number only where the text
  // opens with the relative ("Dad (66) had …", "Son 17 sudden …"): after "my" elsewhere it may be a count.
  new RegExp(String.raw`\bmy\s+${REL}\s*,?\s*\(?\s*(?:aged?\s*[:=]?\s*)?(?<age>\d{1,3})\s*${YEARS}${NOT_AGE}`, 'gi'),
  new RegExp(String.raw`\bmy\s+${REL}\s*,?\s*\(?\s*aged?\s*[:=]?\s*(?<age>\d{1,3})\b${NOT_AGE}`, 'gi'),
  new RegExp(String.raw`${OPENING}${REL}\s*,?\s*\(?\s*(?:aged?\s*[:=]?\s*)?(?<age>\d{1,3})(?:\s*${YEARS})?\b${NOT_AGE}`, 'gi'),
];

/** Ordered: the most specific forms first; each carries an age. An age over 89 is written "90+" once de-identified ("90+-year-old", "age 90+"): read as 90. */
export const AGE_PATTERNS: RegExp[] = [
  // "Mrs K, 84", "Mr D, 88" (care-home notes): the title gives the sex.
  /\b(?<noun>Mr|Mrs|Ms|Miss)\.?\s+[A-Z][\w'-]*\s*,\s*(?<age>\d{1,3})(?=\s*[,.;:)]|\s*$|\s+(?:yo|y\/o|years?|yrs?)\b)/g,
  // "5/12 boy", "3/52 old baby": months or weeks written as a fraction, with the person named (a bare "4/12 cough" is a
  // duration; "6/12 f/u" is a follow-up in six months, no female).
  new RegExp(String.raw`\b(?<age>\d{1,2})\/(?<unit>12|52)\s*(?:old\s*)?(?<noun>${NOUN})\b(?!\/)`, 'gi'),
  // "61M", "45F", "3yoM", "18mo M": the sex letter is upper case only; not after a temperature word ("T 101F").
  new RegExp(
    String.raw`(?<!\b(?:[Tt]|[Tt]emp|[Tt]emperature|[Tt]max|fever|febrile|to|of|at)\s{0,3}[:=]?\s{0,3})(?<![\d.,])\b(?<age>\d{1,3})\+?\s?(?:(?<unit>yo|y\/o|y\.o\.?|mo|mos|m\/o|wk|wks|yr|yrs|y)\.?\s?)?(?<noun>[MF])\b`,
    'g',
  ),
  // "45 year old", "a 67-year-old man", "6 month old son", "45 years of age"
  new RegExp(String.raw`\b(?<age>\d{1,3}(?:\.\d)?)\+?\s*-?\s*${UNIT}\s*-?\s*(?:old|of\s+age)\b${TAIL}`, 'gi'),
  // "45 y/o F", "45yo female", "2yo", "6 m/o"
  new RegExp(String.raw`\b(?<age>\d{1,3})\+?\s*(?<unit>yo|y\/o|y\.o\.?|yr\/o|m\/o|mo\/o)${TAIL}`, 'gi'),
  // "baby 9 weeks", "infant girl, 4 months", "newborn 10 days": an infant's age without "old"
  new RegExp(String.raw`\b(?:baby|infant|newborn|neonate)(?:\s+(?<noun>boy|girl))?\s*,?\s*(?:aged\s+)?(?<age>\d{1,2})\s*${CHILD_UNIT}\b`, 'gi'),
  // "7mo girl", "10 wk old"-less shorthand with the person named: "7 mo baby", "3wk infant" (a duration, "cough x3 mo", names no one)
  new RegExp(String.raw`\b(?<age>\d{1,2})\s?(?<unit>mo|mos|wk|wks)\.?\s*(?<noun>${NOUN})\b`, 'g'),
  // "my daughter (8)", "My husband (63)": the age in brackets after the person
  new RegExp(String.raw`\bmy\s+(?<noun>${RELATIVES.join('|')})\s*\(\s*(?<age>\d{1,3})\s*\)`, 'gi'),
  // "my baby (10 months)"
  new RegExp(String.raw`\(\s*(?<age>\d{1,3})\s*${UNIT}(?:\s+old)?\s*\)`, 'gi'),
  // "age 45", "aged 45", "age: 45"
  new RegExp(String.raw`\bage[ds]?\s*[:=]?\s*(?<age>\d{1,3})\b\+?${TAIL}`, 'gi'),
  // "I'm 34", "I am only 30, female"
  new RegExp(String.raw`\bI(?:['’]m|\s+am)\s+(?:(?:only|just|about|nearly|almost|a)\s+)?(?<age>\d{1,3})${AGE_END}${TAIL}`, 'gi'),
  // "Im 56, from …", "im 16 and …": the apostrophe left out (lay messages; case-sensitive, so "IM 40 mg" is no age)
  new RegExp(String.raw`\b[Ii]m\s+(?:(?:only|just|about|nearly|almost)\s+)?(?<age>\d{1,3})${AGE_END}${TAIL}`, 'g'),
  // A message opening or closing with the bare age: "76, ex smoker, …", "16 and keep having …", "…, dry cough, 29",
  // "… swollen. 70", "… 80 yrs" (not a decimal's tail: "temp 37.8"). Not a number listed with numbers, nor one after a
  // comma whose clause holds a number: "12, 13 and 14 of May", "vomited 3 times, 4", "Apgars 8, 9" go on with a count or a score.
  /^\s*(?<age>\d{1,3})(?=\s*,|\s+and\s+(?!a\s+half))(?!\s*(?:,|and)\s*\d)/g,
  /(?:^|(?<!\d)\.\s*|(?<!\d[^,.;:!?\n]*)[,;]\s*)(?<age>\d{1,3})(?:\s*(?<unit>years?|yrs?|yo|y\/o)(?:\s+old)?)?(?:\s+btw)?\s*[.!]?\s*$/gi,
  // "He's 16", "she is 82", "he's 9 months"
  new RegExp(String.raw`\b(?<noun>he|she)(?:['’]s|\s+is)\s+(?:(?:only|just|about|nearly|almost)\s+)?(?<age>\d{1,3})(?:\s*${CHILD_UNIT})?${AGE_END}`, 'gi'),
  // "my grandma is 82", "my son is 18 months"; a carer opening with the relative, "Dad is 74 with
  // COPD", "Mum's 82": the text is about them (anywhere else, "Dad is 70" without "my" may be family history).
  new RegExp(String.raw`(?:\bmy\s+|^\s*)(?<noun>${RELATIVES.join('|')})(?:\s+(?:is|who\s+is)|['’]s)\s+(?:(?:only|just|about|nearly|almost)\s+)?(?<age>\d{1,3})(?:\s*${CHILD_UNIT})?${AGE_END}`, 'gi'),
];
