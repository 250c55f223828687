import rules from './section-rules.json' with { type: 'json' };
import { normalizeHeading } from './section-rules.js';

/**
 * The shipped section rules' headings that only ever name a section (the rules' `ambiguous` ones
 * excluded: "pe", "s", "p" also name findings or are single letters). The analysis reads them as
 * headings, not as a "question: answer" rendering, so "Reason for admission: 34M with RLQ pain,
 * anorexia" gives the findings and the demographics of any note, where it gave "Reason for
 * admission: anorexia" as one unread phrase. One list, the rules file's, for the build and the query.
 */
export const SHIPPED_HEADINGS: readonly string[] = rules.sections.flatMap((s) => s.headings.filter((h) => !s.ambiguous.includes(h)));

const known = new Set(SHIPPED_HEADINGS.map(normalizeHeading));

/** True when `label` (as written before its ':') is one of the shipped, unambiguous headings. */
export const isSectionHeading = (label: string): boolean => known.has(normalizeHeading(label));
