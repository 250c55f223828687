import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { loadIdentifierRules, scrubIdentifiers, type IdentifierKind, type IdentifierRules } from '../../../../src/clinical-text/deidentify/index.js';

/**
 * Issue 47 item 6: the identifiers real notes carry, planted in 45 invented notes written the way
 * US notes are (a facility letterhead, a demographics block, dictation footers, "cc:" copies).
 * Each note lists what was planted; every one must be gone after scrubbing, the clinical text kept.
 */
interface IdentifierNote {
  id: string;
  condition: string;
  text: string;
  planted: Partial<Record<IdentifierKind, string[]>>;
}

export const IDENTIFIER_NOTES: IdentifierNote[] = readFileSync(new URL('../../../fixtures/identifier-notes/notes.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as IdentifierNote);

/** A planted string is present when found case-insensitively, as a whole word where it starts and ends with a letter. */
export function mentions(text: string, planted: string): boolean {
  const escaped = planted.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![A-Za-z])${escaped}(?![A-Za-z])`, 'i').test(text);
}

describe('clinical text: identifiers real notes carry (issue 47; 45 invented notes)', () => {
  let rules: IdentifierRules;
  before(async () => {
    const loaded = await loadIdentifierRules();
    if (!loaded.ok) assert.fail(loaded.error.message);
    rules = loaded.value;
  });

  it('the fixture plants every category in at least 5 notes', () => {
    assert.ok(IDENTIFIER_NOTES.length >= 40, `${IDENTIFIER_NOTES.length} notes`);
    const notesWith = (kind: IdentifierKind) => IDENTIFIER_NOTES.filter((n) => (n.planted[kind] ?? []).length > 0).length;
    for (const kind of ['NAME', 'DATE', 'MRN', 'PHONE', 'ADDRESS', 'EMAIL', 'ID', 'URL', 'FACILITY', 'LOCATION', 'AGE'] as const) {
      assert.ok(notesWith(kind) >= 5, `${kind} planted in ${notesWith(kind)} notes`);
    }
    const initials = IDENTIFIER_NOTES.flatMap((n) => n.planted.NAME ?? []).filter((s) => /^[A-Z]{2}\/[a-z]{2}$/.test(s));
    assert.ok(initials.length >= 10, 'transcriptionist initials ("JS/mm") planted');
  });

  for (const note of IDENTIFIER_NOTES) {
    it(`${note.id}: every planted identifier is gone, the findings stay`, () => {
      const { text } = scrubIdentifiers(note.text, rules);
      const left = Object.values(note.planted).flat().filter((s) => mentions(text, s));
      assert.deepEqual(left, [], `left in ${note.id}:\n${text}`);
      // The clinical sections come out as written (only identifiers change).
      for (const kept of ['HISTORY OF PRESENT ILLNESS:', 'PHYSICAL EXAMINATION:', 'DATA:']) assert.ok(text.includes(kept), kept);
      const exam = note.text.split('\n').find((l) => l.startsWith('PHYSICAL EXAMINATION:'))!;
      assert.ok(text.includes(exam), `the exam changed:\n${exam}`);
    });
  }
});
