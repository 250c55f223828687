/**
 * Templated normals (issue 47): the review of systems and exam lines a note template writes for
 * every patient ("CTAB", "RRR", "soft, NT/ND", "A&Ox3", "ROS: negative except as in HPI"). Read
 * as words, they became present findings and, across a corpus, emergent concepts of every disease.
 * A finding whose whole text is such a normal is replaced by what the normal denies ("CTAB": no
 * crackles, no wheezing), or by nothing. The forms are data (templated-normals.json).
 */
import { z } from 'zod';
import shipped from './templated-normals.json' with { type: 'json' };
import type { InputFinding } from '../findings.js';
import { sectionRole } from './shipped-rules.js';

const normalsSchema = z.strictObject({
  version: z.literal(1),
  provenance: z.string().trim().min(1),
  normals: z.array(z.strictObject({ forms: z.array(z.string().min(1)).min(1), absent: z.array(z.string().min(1)) })).min(1),
  boilerplate: z.array(z.string().min(1)),
  socialStatus: z.array(z.string().min(1)),
  titleWords: z.array(z.string().min(1)),
});
export type TemplatedNormals = z.infer<typeof normalsSchema>;

interface Compiled {
  denies: Map<string, string[]>;
  boilerplate: RegExp | null;
  /** Words of a marital status, household or employment (social history): no finding of a disease. */
  socialStatus: Set<string>;
  /** Words of a note's title or letterhead, read in a finding written in capitals only. */
  titleWords: Set<string>;
}

/** Lower case, punctuation to spaces, one space: "NT/ND" and "nt nd", "A&Ox3" and "a ox3" alike. */
export const normalForm = (text: string): string =>
  text.toLowerCase().replace(/&/g, ' ').replace(/[^a-z0-9]+/g, ' ').replace(/\b(?:is|are|the)\b/g, ' ').replace(/ +/g, ' ').trim();

/** An exam label a rendering kept ("NECK: Supple") is the site, not the normal. */
const LABEL = /^[A-Za-z/ &]{1,30}:\s*/;

export function compileNormals(raw: unknown): Compiled {
  const file = normalsSchema.parse(raw);
  const denies = new Map<string, string[]>();
  for (const n of file.normals) for (const f of n.forms) denies.set(normalForm(f), [...new Set([...(denies.get(normalForm(f)) ?? []), ...n.absent])]);
  const words = file.boilerplate.map(normalForm).filter(Boolean).map((w) => w.replace(/ /g, ' +'));
  const socialStatus = new Set(file.socialStatus.flatMap((w) => normalForm(w).split(' ')).filter(Boolean));
  const titleWords = new Set(file.titleWords.flatMap((w) => normalForm(w).split(' ')).filter(Boolean));
  return { denies, boilerplate: words.length > 0 ? new RegExp(`(?:^| )(?:${words.join('|')})(?: |$)`) : null, socialStatus, titleWords };
}

let compiledShipped: Compiled | null = null;
/** The shipped file, validated once at first use; a broken file is a bug of the release, so it throws. */
const shippedNormals = (): Compiled => (compiledShipped ??= compileNormals(shipped));

/**
 * What a finding stands for once templated normals are read: itself, nothing (a normal that denies
 * nothing, template boilerplate), or the absent findings the normal denies, at its place. Absent
 * findings that merely deny a normal ("no NAD") and anything negated keep their reading.
 */
export function readTemplatedNormal(f: InputFinding, normals: Compiled = shippedNormals()): InputFinding[] {
  if (f.code || f.measured) return [f];
  const form = normalForm(f.text.replace(LABEL, ''));
  if (normals.boilerplate?.test(form)) return [];
  // "Married, lives with his wife, retired": the social history's status words say who, not what ails.
  if (sectionRole(f.section) === 'social' && form !== '' && form.split(' ').every((w) => normals.socialStatus.has(w) || /^\d+$/.test(w))) return [];
  // A title or letterhead line ("OPERATIVE NOTE", "MEMORIAL MEDICAL CENTER") that no section rule knows.
  if (!/[a-z]/.test(f.text) && form.split(' ').some((w) => normals.titleWords.has(w))) return [];
  if (f.polarity !== 'present' || f.assertion === 'possible' || f.assertion === 'hypothetical') return [f];
  const denied = normals.denies.get(form);
  if (denied === undefined) return [f];
  return denied.map((text) => ({ ...f, text, polarity: 'absent' as const, assertion: 'absent' as const, cue: f.text }));
}
