import { strict as assert } from 'node:assert';
import { segmentSentences } from '../../src/gate/segment-sentences.js';

/** Table-driven: each case is a tricky clinical input and the exact units expected. */
const CASES: { name: string; input: string; expected: string[] }[] = [
  { name: 'plain sentences', input: 'Fever for 3 days. Cough with sputum.', expected: ['Fever for 3 days.', 'Cough with sputum.'] },
  { name: 'decimal temperature', input: 'T 38.2 C. Pulse 110.', expected: ['T 38.2 C.', 'Pulse 110.'] },
  { name: 'decimal at sentence end', input: 'Temperature was 37.5. She felt better.', expected: ['Temperature was 37.5.', 'She felt better.'] },
  { name: 'blood pressure', input: 'BP 120/80 mmHg. HR 72 bpm.', expected: ['BP 120/80 mmHg.', 'HR 72 bpm.'] },
  { name: 'lab value with unit', input: 'Hb 10.2 g/dL. Platelets 250 x10^9/L.', expected: ['Hb 10.2 g/dL.', 'Platelets 250 x10^9/L.'] },
  { name: 'lab value then lowercase (sloppy note)', input: 'Hb 10.2 g/dL. platelets normal', expected: ['Hb 10.2 g/dL.', 'platelets normal'] },
  { name: 'e.g. and i.e.', input: 'Risk factors, e.g. smoking, i.e. 20 pack-years. No fever.', expected: ['Risk factors, e.g. smoking, i.e. 20 pack-years.', 'No fever.'] },
  { name: 'title Dr.', input: 'Seen by Dr. Smith in clinic. Referred to cardiology.', expected: ['Seen by Dr. Smith in clinic.', 'Referred to cardiology.'] },
  { name: 'vs.', input: 'Pneumonia vs. PE considered. CT ordered.', expected: ['Pneumonia vs. PE considered.', 'CT ordered.'] },
  { name: 'dosing b.i.d. mid-sentence', input: 'Amoxicillin 500 mg b.i.d. for 7 days. Pain improved.', expected: ['Amoxicillin 500 mg b.i.d. for 7 days.', 'Pain improved.'] },
  { name: 'dosing q.d. at sentence end', input: 'Takes aspirin 81 mg q.d. Denies bleeding.', expected: ['Takes aspirin 81 mg q.d.', 'Denies bleeding.'] },
  { name: 'approx. before a number', input: 'Symptoms began approx. 3 weeks ago.', expected: ['Symptoms began approx. 3 weeks ago.'] },
  { name: 'semicolons separate findings', input: 'fever; productive cough; no chest pain', expected: ['fever', 'productive cough', 'no chest pain'] },
  { name: 'newline list with bullets', input: 'Findings:\n- fever\n* cough\n• wheezing', expected: ['fever', 'cough', 'wheezing'] },
  { name: 'numbered list lines', input: '1. dyspnea on exertion\n2) orthopnea\n(3) leg edema', expected: ['dyspnea on exertion', 'orthopnea', 'leg edema'] },
  { name: 'inline enumeration', input: 'Problems: 1. fever 2. cough 3. rash', expected: ['fever', 'cough', 'rash'] },
  { name: 'a lone number is not an enumeration', input: 'Vomited x 2. Nausea 1) persists', expected: ['Vomited x 2.', 'Nausea 1) persists'] },
  { name: 'ellipsis before capital splits', input: 'Patient was confused... Then improved.', expected: ['Patient was confused...', 'Then improved.'] },
  { name: 'ellipsis before a section tag splits (FIND case text)', input: '<Chief Complaint>: pain for 2 days... <History>: ...persistent pain', expected: ['<Chief Complaint>: pain for 2 days...', '<History>: ...persistent pain'] },
  { name: 'ellipsis before lowercase does not', input: 'pain radiating to... the left arm', expected: ['pain radiating to... the left arm'] },
  { name: 'question and exclamation', input: 'Chest pain? Yes! Started today.', expected: ['Chest pain?', 'Yes!', 'Started today.'] },
  { name: 'etc. before lowercase', input: 'fever, cough, etc. were noted', expected: ['fever, cough, etc. were noted'] },
  { name: 'closing parenthesis kept', input: 'Rash on trunk (non-blanching.) Seen today.', expected: ['Rash on trunk (non-blanching.)', 'Seen today.'] },
  { name: 'DDXPlus rendering, one finding per line', input: 'age: 45\nsex: male\nPain location: lower chest, side of the chest', expected: ['age: 45', 'sex: male', 'Pain location: lower chest, side of the chest'] },
  { name: 'CRLF and blank lines', input: 'fever\r\n\r\n\r\ncough\r\n', expected: ['fever', 'cough'] },
  { name: 'no empty units from punctuation-only input', input: '... ; . \n - \n;;', expected: [] },
  { name: 'empty string', input: '', expected: [] },
];

describe('gate: segmentSentences', () => {
  for (const c of CASES) {
    it(c.name, () => assert.deepEqual(segmentSentences(c.input), c.expected));
  }

  it('never yields an empty or whitespace-only unit on arbitrary punctuation soup', () => {
    const soup = ['.', ';', '\n', ' ', '...', '?', '1.', '-', 'a', 'B.', 'x;'];
    let seed = 7;
    for (let n = 0; n < 300; n++) {
      let s = '';
      for (let j = 0; j < 12; j++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        s += soup[seed % soup.length];
      }
      for (const unit of segmentSentences(s)) assert.match(unit, /[A-Za-z0-9]/, JSON.stringify(s));
    }
  });
});
