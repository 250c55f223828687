/**
 * What a clinician reads of a similar past record (issue 48 item 2: one clinical voice). A coded
 * record's text is its source's rendering, kept for retrieval (the record index embeds it): for
 * DDXPlus that is the patient-voice questionnaire ("Do you have pain somewhere, related to your
 * reason for consulting? yes", "lesions peel off: yes"), which the copilot showed as the record.
 * The summary is the record's present findings by their clinical labels, as the differential's
 * evidence and the differences KG name them, after its age and sex when the source kept them.
 */
/** "Female, 10: Pain related to the complaint; Sharp pain; Pain at upper chest; …": the present findings' labels in the record's order, each once. */
export function recordSummary(r: { age: number | null; sex: 'M' | 'F' | null }, labels: readonly string[]): string {
  const who = [r.sex === 'M' ? 'Male' : r.sex === 'F' ? 'Female' : null, r.age === null ? null : `${r.age}`].filter((x) => x !== null).join(', ');
  const findings = labels.length > 0 ? [...new Set(labels)].join('; ') : 'no findings recorded';
  return who === '' ? findings : `${who}: ${findings}`;
}
