/**
 * ICD-10 chapter and block titles for the ICD-10 hierarchy (L1 = chapter, L2 = block).
 *
 * Provenance: WHO ICD-10, 2019 edition (icd.who.int/browse10/2019/en), chapter and block
 * titles as printed there (British spelling kept). ICD-10-CM shares the chapters and
 * almost all block ranges for these codes. Only a small table ships: every chapter, and
 * the blocks of the codes the shipped data needs (DDXPlus's 49 conditions in
 * release_conditions.json) plus common neighbours in the same chapters. A code whose
 * block is not listed still gets its chapter, and its 3-character category stands in for
 * the block (hierarchy-icd10.ts), so nothing is dropped when a hospital source carries
 * other codes; extend BLOCKS to name them.
 */

export interface Icd10Range {
  /** First and last 3-character category, inclusive ("J09", "J18"). */
  from: string;
  to: string;
  title: string;
}

export interface Icd10Chapter extends Icd10Range {
  roman: string;
}

export const CHAPTERS: readonly Icd10Chapter[] = [
  { from: 'A00', to: 'B99', roman: 'I', title: 'Certain infectious and parasitic diseases' },
  { from: 'C00', to: 'D48', roman: 'II', title: 'Neoplasms' },
  { from: 'D50', to: 'D89', roman: 'III', title: 'Diseases of the blood and blood-forming organs and certain disorders involving the immune mechanism' },
  { from: 'E00', to: 'E90', roman: 'IV', title: 'Endocrine, nutritional and metabolic diseases' },
  { from: 'F00', to: 'F99', roman: 'V', title: 'Mental and behavioural disorders' },
  { from: 'G00', to: 'G99', roman: 'VI', title: 'Diseases of the nervous system' },
  { from: 'H00', to: 'H59', roman: 'VII', title: 'Diseases of the eye and adnexa' },
  { from: 'H60', to: 'H95', roman: 'VIII', title: 'Diseases of the ear and mastoid process' },
  { from: 'I00', to: 'I99', roman: 'IX', title: 'Diseases of the circulatory system' },
  { from: 'J00', to: 'J99', roman: 'X', title: 'Diseases of the respiratory system' },
  { from: 'K00', to: 'K93', roman: 'XI', title: 'Diseases of the digestive system' },
  { from: 'L00', to: 'L99', roman: 'XII', title: 'Diseases of the skin and subcutaneous tissue' },
  { from: 'M00', to: 'M99', roman: 'XIII', title: 'Diseases of the musculoskeletal system and connective tissue' },
  { from: 'N00', to: 'N99', roman: 'XIV', title: 'Diseases of the genitourinary system' },
  { from: 'O00', to: 'O99', roman: 'XV', title: 'Pregnancy, childbirth and the puerperium' },
  { from: 'P00', to: 'P96', roman: 'XVI', title: 'Certain conditions originating in the perinatal period' },
  { from: 'Q00', to: 'Q99', roman: 'XVII', title: 'Congenital malformations, deformations and chromosomal abnormalities' },
  { from: 'R00', to: 'R99', roman: 'XVIII', title: 'Symptoms, signs and abnormal clinical and laboratory findings, not elsewhere classified' },
  { from: 'S00', to: 'T98', roman: 'XIX', title: 'Injury, poisoning and certain other consequences of external causes' },
  { from: 'V01', to: 'Y98', roman: 'XX', title: 'External causes of morbidity and mortality' },
  { from: 'Z00', to: 'Z99', roman: 'XXI', title: 'Factors influencing health status and contact with health services' },
  { from: 'U00', to: 'U99', roman: 'XXII', title: 'Codes for special purposes' },
];

export const BLOCKS: readonly Icd10Range[] = [
  // I Certain infectious and parasitic diseases
  { from: 'A00', to: 'A09', title: 'Intestinal infectious diseases' },
  { from: 'A15', to: 'A19', title: 'Tuberculosis' },
  { from: 'A30', to: 'A49', title: 'Other bacterial diseases' },
  { from: 'A80', to: 'A89', title: 'Viral infections of the central nervous system' },
  { from: 'A92', to: 'A99', title: 'Arthropod-borne viral fevers and viral haemorrhagic fevers' },
  { from: 'B00', to: 'B09', title: 'Viral infections characterized by skin and mucous membrane lesions' },
  { from: 'B15', to: 'B19', title: 'Viral hepatitis' },
  { from: 'B20', to: 'B24', title: 'Human immunodeficiency virus [HIV] disease' },
  { from: 'B25', to: 'B34', title: 'Other viral diseases' },
  { from: 'B50', to: 'B64', title: 'Protozoal diseases' },
  // II Neoplasms
  { from: 'C15', to: 'C26', title: 'Malignant neoplasms of digestive organs' },
  { from: 'C30', to: 'C39', title: 'Malignant neoplasms of respiratory and intrathoracic organs' },
  { from: 'C50', to: 'C50', title: 'Malignant neoplasm of breast' },
  // III Blood and immune mechanism
  { from: 'D50', to: 'D53', title: 'Nutritional anaemias' },
  { from: 'D55', to: 'D59', title: 'Haemolytic anaemias' },
  { from: 'D60', to: 'D64', title: 'Aplastic and other anaemias' },
  { from: 'D65', to: 'D69', title: 'Coagulation defects, purpura and other haemorrhagic conditions' },
  { from: 'D80', to: 'D89', title: 'Certain disorders involving the immune mechanism' },
  // IV Endocrine
  { from: 'E10', to: 'E14', title: 'Diabetes mellitus' },
  // V Mental and behavioural
  { from: 'F30', to: 'F39', title: 'Mood [affective] disorders' },
  { from: 'F40', to: 'F48', title: 'Neurotic, stress-related and somatoform disorders' },
  // VI Nervous system
  { from: 'G00', to: 'G09', title: 'Inflammatory diseases of the central nervous system' },
  { from: 'G20', to: 'G26', title: 'Extrapyramidal and movement disorders' },
  { from: 'G40', to: 'G47', title: 'Episodic and paroxysmal disorders' },
  { from: 'G60', to: 'G64', title: 'Polyneuropathies and other disorders of the peripheral nervous system' },
  { from: 'G70', to: 'G73', title: 'Diseases of myoneural junction and muscle' },
  // VIII Ear
  { from: 'H60', to: 'H62', title: 'Diseases of external ear' },
  { from: 'H65', to: 'H75', title: 'Diseases of middle ear and mastoid' },
  // IX Circulatory
  { from: 'I10', to: 'I15', title: 'Hypertensive diseases' },
  { from: 'I20', to: 'I25', title: 'Ischaemic heart diseases' },
  { from: 'I26', to: 'I28', title: 'Pulmonary heart disease and diseases of pulmonary circulation' },
  { from: 'I30', to: 'I52', title: 'Other forms of heart disease' },
  { from: 'I60', to: 'I69', title: 'Cerebrovascular diseases' },
  { from: 'I80', to: 'I89', title: 'Diseases of veins, lymphatic vessels and lymph nodes, not elsewhere classified' },
  // X Respiratory
  { from: 'J00', to: 'J06', title: 'Acute upper respiratory infections' },
  { from: 'J09', to: 'J18', title: 'Influenza and pneumonia' },
  { from: 'J20', to: 'J22', title: 'Other acute lower respiratory infections' },
  { from: 'J30', to: 'J39', title: 'Other diseases of upper respiratory tract' },
  { from: 'J40', to: 'J47', title: 'Chronic lower respiratory diseases' },
  { from: 'J60', to: 'J70', title: 'Lung diseases due to external agents' },
  { from: 'J80', to: 'J84', title: 'Other respiratory diseases principally affecting the interstitium' },
  { from: 'J85', to: 'J86', title: 'Suppurative and necrotic conditions of lower respiratory tract' },
  { from: 'J90', to: 'J94', title: 'Other diseases of pleura' },
  { from: 'J95', to: 'J99', title: 'Other diseases of the respiratory system' },
  // XI Digestive
  { from: 'K20', to: 'K31', title: 'Diseases of oesophagus, stomach and duodenum' },
  { from: 'K35', to: 'K38', title: 'Diseases of appendix' },
  { from: 'K40', to: 'K46', title: 'Hernia' },
  { from: 'K50', to: 'K52', title: 'Noninfective enteritis and colitis' },
  { from: 'K70', to: 'K77', title: 'Diseases of liver' },
  { from: 'K80', to: 'K87', title: 'Disorders of gallbladder, biliary tract and pancreas' },
  // XII Skin
  { from: 'L20', to: 'L30', title: 'Dermatitis and eczema' },
  { from: 'L50', to: 'L54', title: 'Urticaria and erythema' },
  // XIII Musculoskeletal
  { from: 'M05', to: 'M14', title: 'Inflammatory polyarthropathies' },
  { from: 'M30', to: 'M36', title: 'Systemic connective tissue disorders' },
  // XIV Genitourinary
  { from: 'N17', to: 'N19', title: 'Renal failure' },
  { from: 'N30', to: 'N39', title: 'Other diseases of urinary system' },
  // XVIII Symptoms and signs
  { from: 'R00', to: 'R09', title: 'Symptoms and signs involving the circulatory and respiratory systems' },
  { from: 'R10', to: 'R19', title: 'Symptoms and signs involving the digestive system and abdomen' },
  { from: 'R50', to: 'R69', title: 'General symptoms and signs' },
  // XIX Injury and poisoning
  { from: 'S00', to: 'S09', title: 'Injuries to the head' },
  { from: 'S20', to: 'S29', title: 'Injuries to the thorax' },
  { from: 'T51', to: 'T65', title: 'Toxic effects of substances chiefly nonmedicinal as to source' },
  { from: 'T66', to: 'T78', title: 'Other and unspecified effects of external causes' },
];

const inRange = (category: string, r: Icd10Range): boolean => category >= r.from && category <= r.to;

/** Chapter of a 3-character category ("J18" -> X), null outside every chapter. */
export function chapterOf(category: string): Icd10Chapter | null {
  return CHAPTERS.find((c) => inRange(category, c)) ?? null;
}

/** Block of a 3-character category ("J18" -> J09-J18 Influenza and pneumonia), null when not in the table. */
export function blockOf(category: string): Icd10Range | null {
  return BLOCKS.find((b) => inRange(category, b)) ?? null;
}
