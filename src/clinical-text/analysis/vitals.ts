import type { Span } from './types.js';

/**
 * Vital signs in clinician notes ("SpO2 86% RA", "HR 118", "RR 26", "BP 150/90"): measurements,
 * not findings the KG's vocabulary can hold, and their shorthand collides with it ("RA" after a
 * saturation is room air, not rheumatoid arthritis). Their spans are masked like demographics.
 * A temperature is not here: it is the fever finding's value (values.ts).
 */
const VITALS: readonly RegExp[] = [
  /\b(?:SpO2|SaO2|O2\s*sats?|sats?|oxygen\s+saturation|pulse\s*ox)\s*(?:of|was|is|:|=)?\s*\d{2,3}\s*%?(?:\s*(?:on\s+)?(?:RA|room\s+air|\d+(?:\.\d+)?\s*L(?:\/min)?(?:\s*(?:NC|NRB|nasal\s+cannula))?))?/gi,
  /\b\d{2,3}\s*%\s*(?:on\s+)?(?:RA|room\s+air)\b/gi,
  /\b(?:HR|heart\s+rate|pulse(?:\s+rate)?)\s*(?:(?:of|was|is|about|around|:|=|~|@)\s*)*\d{2,3}(?:\s*(?:bpm|\/min))?\b/gi,
  /\b(?:RR|resp(?:iratory)?\s+rate)\s*(?:of|was|is|:|=)?\s*\d{1,2}\b/gi,
  /\b(?:BP|blood\s+pressure)\s*(?:of|was|is|:|=)?\s*\d{2,3}\s*\/\s*\d{2,3}(?:\s*mm\s*Hg)?/gi,
];

export function vitalSigns(text: string): Span[] {
  const out: Span[] = [];
  for (const re of VITALS) for (const m of text.matchAll(re)) out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}
