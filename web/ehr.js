// EHR JSON upload: {text?, findings?: [{text, polarity?, code?, valueCode?}], age?, sex?}.
// Only the fields the API takes are kept; the server validates them again.

const str = (v) => (typeof v === 'string' && v.trim() ? v.trim() : null);

function finding(f, i) {
  if (typeof f === 'string' && f.trim()) return { text: f.trim(), polarity: 'present', code: null, valueCode: null };
  if (!f || typeof f !== 'object' || !str(f.text)) throw new Error(`findings[${i}] needs a text`);
  const polarity = f.polarity === 'absent' || f.present === false ? 'absent' : 'present';
  return { text: str(f.text), polarity, code: str(f.code), valueCode: str(f.valueCode) };
}

/** Parse an uploaded file's text; throws an Error with a reason a clinician can act on. */
export function parseEhr(jsonText) {
  let doc;
  try {
    doc = JSON.parse(jsonText);
  } catch {
    throw new Error('the file is not valid JSON');
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('expected a JSON object');
  const findings = Array.isArray(doc.findings) ? doc.findings.map(finding) : [];
  const text = str(doc.text);
  if (!text && findings.length === 0) throw new Error('the file has neither "text" nor "findings"');
  const age = Number.isInteger(doc.age) && doc.age >= 0 && doc.age <= 130 ? doc.age : null;
  const sex = doc.sex === 'M' || doc.sex === 'F' ? doc.sex : null;
  return { text, findings, age, sex };
}
