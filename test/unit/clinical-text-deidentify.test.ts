import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LexiconError } from '../../src/errors.js';
import {
  defaultIdentifierRulesPath,
  IDENTIFIER_KINDS,
  loadIdentifierRules,
  parseIdentifierRules,
  scrubIdentifiers,
  type IdentifierKind,
  type IdentifierRules,
} from '../../src/clinical-text/deidentify/index.js';

/**
 * De-identification at ingest (issue 24). Identifiers of every kind are planted in notes written
 * the way notes are written (an H&P header, a discharge summary, a portal message, a triage
 * line); each must be gone and counted. Clinical content must come out byte for byte.
 */
interface Planted {
  what: string;
  note: string;
  identifiers: Partial<Record<IdentifierKind, string[]>>;
  /** Expected counts where a name is also scrubbed where it recurs (more hits than planted strings). */
  counts: Partial<Record<IdentifierKind, number>>;
}

const PLANTED: Planted[] = [
  {
    what: 'an H&P with a demographics header',
    note: [
      'Patient name: GARCIA, MARIA   DOB: 03/14/1961   MRN: 00482913',
      'Acct #: 7734-2210   SSN 123-45-6789',
      'Address: 1428 Elm Street, Apt 3B, Springfield, IL 62704',
      'Phone: (217) 555-0142   Email: maria.garcia@example.com',
      'Portal: https://portal.examplehealth.org/patient/48213',
      'Attending: Dr. Alice Nguyen   Seen 2025-02-11',
      '',
      'CC: RLQ pain x3d',
      'HPI: 61F with periumbilical pain for 2 weeks, worse since 3/2, now RLQ. Pain 7/10. Took ibuprofen 400 mg q6h.',
      'Her husband Carlos drove her in. Mrs. Garcia denies fever.',
      "Exam: BP 150/90, HR 118, RR 22, T 38.5, SpO2 94% on RA. McBurney's point tender, Rovsing's sign positive, Murphy's sign negative.",
      'Labs: WBC 14.2, glucose 41, Cr 1.1.',
      'Electronically signed by: Alice Nguyen, MD on 14 Mar 2025',
    ].join('\n'),
    identifiers: {
      NAME: ['GARCIA', 'MARIA', 'Alice', 'Nguyen', 'Carlos', 'Garcia'],
      DATE: ['03/14/1961', '2025-02-11', '3/2', '14 Mar 2025'],
      MRN: ['00482913', '7734-2210'],
      ID: ['123-45-6789'],
      ADDRESS: ['1428 Elm Street', 'Apt 3B', 'Springfield', '62704'],
      PHONE: ['555-0142'],
      EMAIL: ['maria.garcia@example.com'],
      URL: ['portal.examplehealth.org', '48213'],
    },
    counts: { NAME: 5, DATE: 4, MRN: 2, ID: 1, ADDRESS: 1, PHONE: 1, EMAIL: 1, URL: 1 },
  },
  {
    what: 'a discharge summary',
    note: [
      'Name: Robert Castellano    DOB 05/11/1953    MRN 3318407',
      'Admitted: 2025-01-09   Discharged: January 12, 2025',
      'PCP: Ann Lee, MD (fax 217.555.0199)',
      'Reason for admission: 72M with fever 39.1 and cough x5 days.',
      "Hospital course: CXR RLL consolidation. Treated with ceftriaxone 1 g daily. Mr. Castellano improved; Castellano's daughter Linda will stay with him at 22 Oak Lane, Urbana, IL 61801.",
      'Follow-up: Dr. Patel in 2 weeks; call 555-0148 or +44 20 7946 0958.',
      'Device serial number: SN-88231907. Accessed from 192.168.10.24.',
    ].join('\n'),
    identifiers: {
      NAME: ['Robert', 'Castellano', 'Ann Lee', 'Linda', 'Patel'],
      DATE: ['05/11/1953', '2025-01-09', 'January 12'],
      MRN: ['3318407'],
      PHONE: ['217.555.0199', '555-0148', '7946 0958'],
      ADDRESS: ['22 Oak Lane', 'Urbana', '61801'],
      ID: ['88231907', '192.168.10.24'],
    },
    counts: { NAME: 6, DATE: 3, MRN: 1, PHONE: 3, ADDRESS: 1, ID: 2 },
  },
  {
    what: 'a portal message signed with a first name',
    note: [
      "Hi Dr. Okafor, this is Priya Nair (DOB 11/03/1990). Since yesterday I've had watery diarrhea 8 times and threw up twice.",
      "My son had the same thing from daycare. No fever, 98.9. I'm 34F and not pregnant. My cell is 555-0143, or email",
      'priya.nair@mail.example.net. Forms at www.example-clinic.com/forms.',
      'Thanks,',
      'Priya',
    ].join('\n'),
    identifiers: { NAME: ['Okafor', 'Priya', 'Nair'], DATE: ['11/03/1990'], PHONE: ['555-0143'], EMAIL: ['priya.nair@'], URL: ['example-clinic.com'] },
    counts: { NAME: 3, DATE: 1, PHONE: 1, EMAIL: 1, URL: 1 },
  },
  {
    what: 'a triage line that opens with the name',
    note: 'Kevin Draper 38M MRN 5520874, ph 555-0164. c/o sudden severe L flank pain since 0500, N/V x2. T 36.8 HR 98 BP 158/94. Pain 10/10. Draper had a similar episode in 2019.',
    identifiers: { NAME: ['Kevin', 'Draper'], MRN: ['5520874'], PHONE: ['555-0164'] },
    counts: { NAME: 2, MRN: 1, PHONE: 1 },
  },
];

/** The clinical content the brief lists, each as it must come out. */
const CLINICAL = [
  '45 y/o', '61M', 'x3d', 'for 2 weeks', 'BP 150/90', 'HR 118', 'T 38.5', 'SpO2 94%', 'WBC 14.2', 'glucose 41', '7/10',
  'ibuprofen 400 mg', "Murphy's sign", "McBurney's point", 'Kernig', 'Brudzinski', 'Homans', 'Phalen', 'Tinel', 'Dix-Hallpike',
  'Rovsing', 'Lasegue',
];

const CLINICAL_NOTE = [
  '45 y/o F and her father, 61M, both seen. Cough x3d, fever for 2 weeks.',
  'Vitals: BP 150/90, HR 118, T 38.5, SpO2 94% on RA, RR 24.',
  'Labs: WBC 14.2, glucose 41, Na 134, pH 7.35, pCO2 48, Plt 250,000, HIV viral load 1200000 copies/mL.',
  'Pain 7/10. Grade 2/6 systolic murmur. Strength 5/5. GCS 15/15.',
  'Meds: ibuprofen 400 mg q6h, started 1/2 tab metoprolol, amoxicillin 500 mg TID x 7 d. I/O 500 750 1200.',
  "Exam: Murphy's sign negative, McBurney's point tender, Kernig and Brudzinski negative, Homans sign negative.",
  'Phalen and Tinel positive. Dix-Hallpike positive on the right, Epley maneuver done. Rovsing sign +. Lasegue positive at 40 degrees.',
  "Babinski downgoing. Her mother has Alzheimer's disease; his father Parkinson's. Graves' disease in sister.",
  'Denies chest pain. Reports nausea. Presents with dysuria. Patient: Alert and oriented. PT: Ambulating 100 ft.',
  'CT A/P: no free air. Smokes 1 ppd x 20 yrs. Follow up in 2 days. Returned from Mexico in May. Tylenol 650 mg.',
].join('\n');

const NONE_FOUND = Object.fromEntries(IDENTIFIER_KINDS.map((k) => [k, 0]));

describe('clinical text: identifier scrubbing (HIPAA Safe Harbor style)', () => {
  let rules: IdentifierRules;

  before(async () => {
    const loaded = await loadIdentifierRules();
    if (!loaded.ok) assert.fail(loaded.error.message);
    rules = loaded.value;
  });

  for (const p of PLANTED) {
    it(`removes and counts every identifier planted in ${p.what}`, () => {
      const { text, found } = scrubIdentifiers(p.note, rules);
      for (const [kind, strings] of Object.entries(p.identifiers)) {
        for (const s of strings) assert.ok(!text.includes(s), `${kind} "${s}" is still in:\n${text}`);
      }
      assert.deepEqual(found, { ...NONE_FOUND, ...p.counts });
    });
  }

  it('leaves the clinical content of a note with identifiers byte for byte', () => {
    const { text } = scrubIdentifiers(PLANTED[0]!.note, rules);
    for (const kept of ['x3d', 'for 2 weeks', '7/10', 'ibuprofen 400 mg', 'BP 150/90', 'HR 118', 'T 38.5', 'SpO2 94%', "McBurney's point", "Rovsing's sign", "Murphy's sign", 'WBC 14.2', 'glucose 41', '61F']) {
      assert.ok(text.includes(kept), `"${kept}" is gone from:\n${text}`);
    }
  });

  it('changes nothing in a note without identifiers: ages, durations, vitals, labs, scores, doses, eponyms, sentence starts', () => {
    const { text, found } = scrubIdentifiers(CLINICAL_NOTE, rules);
    assert.equal(text, CLINICAL_NOTE);
    assert.deepEqual(found, NONE_FOUND);
    for (const kept of CLINICAL) assert.ok(CLINICAL_NOTE.includes(kept), `test note lacks "${kept}"`);
  });

  it('scrubs the name after a title and keeps the title ("Dr. Smith" -> "Dr. [NAME]")', () => {
    assert.equal(scrubIdentifiers('Seen by Dr. Smith today.', rules).text, 'Seen by Dr. [NAME] today.');
    assert.equal(scrubIdentifiers("Discussed with Mrs. O'Brien-Walsh.", rules).text, 'Discussed with Mrs. [NAME].');
  });

  it('keeps labels readable and replaces only the value ("MRN: [MRN]", "DOB: [DATE]")', () => {
    assert.equal(scrubIdentifiers('DOB: 1961-03-14, MRN: A1234567, cb# 217-555-0142', rules).text, 'DOB: [DATE], MRN: [MRN], cb# [PHONE]');
  });

  it('scrubs a name found after a cue wherever it recurs, but not inside an eponym', () => {
    const note = "Pt: Sean Murphy\nMurphy reports RUQ pain. Murphy's sign positive. MURPHY, SEAN on the wristband.";
    assert.equal(scrubIdentifiers(note, rules).text, "Pt: [NAME]\n[NAME] reports RUQ pain. Murphy's sign positive. [NAME], [NAME] on the wristband.");
  });

  it('reads a bare month/day as a date only after a date cue ("since 3/2"), never a bare score', () => {
    assert.equal(scrubIdentifiers('Cough since 3/2, pain 3/10 on 12/24.', rules).text, 'Cough since [DATE], pain 3/10 on [DATE].');
  });

  it('is deterministic and reports every kind, zero when none', () => {
    const a = scrubIdentifiers(PLANTED[1]!.note, rules);
    assert.deepEqual(scrubIdentifiers(PLANTED[1]!.note, rules), a);
    assert.deepEqual(Object.keys(scrubIdentifiers('no identifiers here', rules).found).sort(), [...IDENTIFIER_KINDS].sort());
  });
});

describe('clinical text: identifier rules file', () => {
  let dir: string;
  let shipped: Record<string, unknown> & { patterns: Array<Record<string, unknown>> };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dxgraph-idrules-'));
    shipped = JSON.parse(await readFile(defaultIdentifierRulesPath(), 'utf8')) as typeof shipped;
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const withPattern = (pattern: Record<string, unknown>) => ({ ...shipped, patterns: [...shipped.patterns, pattern] });

  it('refuses an invalid regular expression, naming the pattern', () => {
    const parsed = parseIdentifierRules(withPattern({ kind: 'ID', caseInsensitive: false, note: 'broken', regex: 'NHS (\\d+' }), 'x.json');
    assert.ok(!parsed.ok && parsed.error instanceof LexiconError);
    assert.equal(parsed.error.field, `patterns.${shipped.patterns.length}.regex`);
  });

  it('refuses an unknown {name} and a case-sensitive list inside a case-insensitive pattern', () => {
    const unknown = parseIdentifierRules(withPattern({ kind: 'ID', caseInsensitive: false, note: 'x', regex: '{nope}\\d+' }), 'x.json');
    assert.ok(!unknown.ok && /unknown \{nope\}/.test(unknown.error.message));
    const caseMix = parseIdentifierRules(withPattern({ kind: 'ADDRESS', caseInsensitive: true, note: 'x', regex: '{state} \\d{5}' }), 'x.json');
    assert.ok(!caseMix.ok && /case-sensitive/.test(caseMix.error.message));
  });

  it('applies a pattern added to the data (rules are data, not code)', async () => {
    const path = join(dir, 'site.json');
    await writeFile(path, JSON.stringify(withPattern({ kind: 'ID', caseInsensitive: true, note: 'NHS numbers', regex: '\\bnhs[ \\t]*(?<id>\\d{3} \\d{3} \\d{4})' })));
    const loaded = await loadIdentifierRules(path);
    if (!loaded.ok) assert.fail(loaded.error.message);
    assert.equal(scrubIdentifiers('NHS 943 476 5919', loaded.value).text, 'NHS [ID]');
  });

  it('reports a missing or malformed file as a LexiconError naming the path', async () => {
    const missing = await loadIdentifierRules(join(dir, 'absent.json'));
    assert.ok(!missing.ok && missing.error instanceof LexiconError && missing.error.path.endsWith('absent.json'));
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{ not json');
    const malformed = await loadIdentifierRules(bad);
    assert.ok(!malformed.ok && /not valid JSON/.test(malformed.error.message));
  });
});
