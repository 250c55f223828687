// Tiny DOM helpers. Server data only ever becomes text nodes (never parsed as HTML).
const SVG_NS = 'http://www.w3.org/2000/svg';

function build(node, attrs, children) {
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** `el('li', {class: 'x'}, 'text', child)`: an HTML element; strings become text nodes. */
export const el = (tag, attrs, ...children) => build(document.createElement(tag), attrs, children);

/** The same for SVG elements. */
export const svgEl = (tag, attrs, ...children) => build(document.createElementNS(SVG_NS, tag), attrs, children);

export const $ = (id) => document.getElementById(id);

/** Replace an element's children. */
export function fill(node, ...children) {
  node.replaceChildren();
  build(node, {}, children);
  return node;
}

/**
 * A probability as a clinician should read it: whole percents, and never a false 0% or 100%
 * (issue 26): under 1% reads "<1%", above 99% reads ">99%".
 */
export const pct = (x) => (x < 0.01 ? '<1%' : x > 0.99 ? '>99%' : `${Math.round(100 * x)}%`);

/** One sentence saying what the differential's numbers are (docs/http-api.md#what-the-score-is). */
export function probabilityMeaning(probability, afterAnswers) {
  if (afterAnswers) return 'Probability of each disease given the description and your answers (the consultation’s Bayes update).';
  if (!probability) return '';
  if (probability.source === 'llm-confidence') return 'The LLM’s own confidence, normalised over its list: not a calibrated probability.';
  return probability.calibrated
    ? 'Probability of each disease given what was described, calibrated on held-out cases (of 100 patients shown 70%, about 70 have it).'
    : 'Ranked by the evidence. Uncalibrated: this build was too small to calibrate (or built with --no-calibrate), so no probability is shown; its raw posterior is overconfident.';
}

/** An evidence posterior the build could not calibrate: the copilot shows ranks, not numbers (issue 48). */
export const ranksOnly = (probability) => probability?.source === 'evidence-posterior' && probability.calibrated === false;

/** A disease's number as the copilot shows it: its percent, or "uncalibrated" when only the rank means something. */
export const scoreText = (score, probability) => (ranksOnly(probability) ? 'uncalibrated' : pct(score));

/** Shorten a label for a drawing; the full text stays available in a <title>. */
export const short = (s, n = 32) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
