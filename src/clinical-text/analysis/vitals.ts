import type { Span } from './types.js';
import { readMeasurements } from './measurements.js';

/**
 * Vital signs and labs in clinician notes ("SpO2 86% RA", "HR 118", "RR 26", "BP 150/90", "Hct
 * 28.1", "albumin 2.9"): measurements, not findings the KG's vocabulary can hold, and their
 * shorthand collides with it ("RA" after a saturation is room air, not rheumatoid arthritis;
 * "white blood cell count 15.2" had read as low white cells by embedding, "albumin 2.9" as
 * albuminuria). Their spans are masked like demographics; what the value shows is read by
 * measurements.ts. A temperature is not here: it is the fever finding's value (values.ts).
 */
const VITALS: readonly RegExp[] = [
  /\b(?:SpO2|SaO2|O2\s*sats?|sats?|oxygen\s+saturation|pulse\s*ox)\s*(?:of|was|is|:|=)?\s*\d{2,3}\s*%?(?:\s*(?:on\s+)?(?:RA|room\s+air|\d+(?:\.\d+)?\s*L(?:\/min)?(?:\s*(?:NC|NRB|nasal\s+cannula))?))?/gi,
  /\b\d{2,3}\s*%\s*(?:on\s+)?(?:RA|room\s+air)\b/gi,
  /\b(?:HR|heart\s+rate|pulse(?:\s+rate)?)\s*(?:(?:of|was|is|about|around|:|=|~|@)\s*)*\d{2,3}(?:\s*(?:bpm|\/min))?\b/gi,
  /\b(?:RR|resp(?:iratory)?\s+rate)\s*(?:of|was|is|:|=)?\s*\d{1,2}\b/gi,
  /\b(?:BP|blood\s+pressure)\s*(?:of|was|is|:|=)?\s*\d{2,3}\s*\/\s*\d{2,3}(?:\s*mm\s*Hg)?/gi,
];

/** A pulse's rhythm between its name and value is a finding of its own ("pulse irregularly irregular ~130"): that reading is not masked. */
const RHYTHM = /\b(?:irregular(?:ly)?|irreg|regular|thready|bounding)\b/i;
/** What follows a saturation: the air or oxygen it was taken on ("95% on 2 L NC"), no finding. */
const ON_OXYGEN = /^\s*%?\s*(?:(?:on|with)\s+)?(?:RA|room\s+air|\d+(?:\.\d+)?\s*(?:L|liters?|lpm)(?:\/min)?(?:\s*(?:NC|NRB|nasal\s+cannula|of\s+oxygen|O2))?)\b/i;

export function vitalSigns(text: string): Span[] {
  const out: Span[] = [];
  for (const re of VITALS) for (const m of text.matchAll(re)) out.push({ start: m.index, end: m.index + m[0].length });
  // Every lab or vital sign the measurement rules read, name and value: the value is read there, never as words.
  for (const m of readMeasurements(text, null)) {
    if (RHYTHM.test(text.slice(m.span.start, m.span.end))) continue;
    const air = m.analyte === 'oxygen saturation' ? ON_OXYGEN.exec(text.slice(m.span.end)) : null;
    out.push({ start: m.span.start, end: m.span.end + (air ? air[0].length : 0) });
  }
  return out;
}
