// Result panels: differential, gate, report, similar records, trace, triples table.
import { $, el, fill, pct } from './dom.js';

/** items: [{diseaseId, disease, score, category, subcategory}] best first. */
/** ranksOnly: an uncalibrated build (issue 48): the list's order only, no number or bar to over-read. */
export function renderDifferential(items, topN = 10, { ranksOnly = false } = {}) {
  fill($('differential'), items.slice(0, topN).map((d) =>
    el('li', { 'data-disease-id': d.diseaseId },
      el('span', { class: 'dx-name' }, d.disease), ' ', el('span', { class: 'dx-score' }, ranksOnly ? 'uncalibrated' : pct(d.score)),
      ...(ranksOnly ? [] : [barOf(d.score)]),
      el('div', { class: 'path' }, [d.category, d.subcategory].filter(Boolean).join(' › ') || 'path unknown'))));
}

function barOf(x) {
  const inner = el('span');
  inner.style.width = `${Math.max(1, Math.round(100 * x))}%`; // CSSOM, allowed by the page's CSP
  return el('div', { class: 'bar', 'aria-hidden': 'true' }, inner);
}

export function renderGate(gate) {
  $('gate-panel').hidden = !gate;
  if (!gate) return;
  const meaning = { direct: 'answered directly (enough information)', retrieve: 'retrieval used', 'retrieve-warn': 'retrieval used, information is sparse' }[gate.decision];
  fill($('gate'), `Decision: ${gate.decision} — ${meaning}. Information density I_norm = ${gate.score.toFixed(2)}.`);
  $('gate-warning').hidden = !gate.warning;
  fill($('gate-warning'), gate.warning ?? '');
}

/** Who answered, so a clinician knows which model wrote the text (issue 27): "llm reasoner, model SmolLM2-135M-Instruct.Q4_1 (local)". */
export function answeredBy(result) {
  const model = result.model ? `, model ${result.model}` : '';
  return `${result.reasoner} reasoner${model}${result.degraded ? ', degraded: the evidence reasoner answered' : ''}`;
}

export function renderAnsweredBy(result) {
  fill($('answered-by'), `First answer: ${answeredBy(result)}.`);
}

/**
 * The LLM's report (issue 48): "pending" while the model writes (the differential above does not
 * wait for it), then its narrative, or why there is none. A small local model's treatments and
 * medications are left out by the server: the lists are then hidden, not shown empty.
 */
export function renderReport(result) {
  const r = result.report;
  $('report-panel').hidden = !r;
  if (!r) return;
  fill($('report-source'), r.status === 'pending' ? '(the language model is writing it…)' : `(${answeredBy(result)})`);
  fill($('report'), reportText(r));
  const treatments = r.treatments ?? [];
  const medications = r.medications ?? [];
  fill($('treatments'), treatments.map((t) => el('li', {}, t)));
  fill($('medications'), medications.map((t) => el('li', {}, t)));
  $('treatments-box').hidden = treatments.length === 0;
  $('medications-box').hidden = medications.length === 0;
}

/** A small local model often writes no whole sentence: its ranking stands, and the page says there is no narrative rather than show nothing. */
function reportText(r) {
  if (r.status === 'pending') return 'The differential above is ready; the report will appear here.';
  if (r.status === 'failed') return `No report: ${r.error ?? 'the language model gave none'}.`;
  return r.narrative || 'The language model ranked the diagnoses above but wrote no narrative in whole sentences.';
}

export function renderRecords(records) {
  fill($('records-summary'), `Show ${records.length} similar past record${records.length === 1 ? '' : 's'}`);
  fill($('records'), records.map((r) =>
    // The summary is the record in the clinical voice; builds before it have only the source's text.
    el('li', {}, el('strong', {}, r.diagnosis), ` — similarity ${r.similarity.toFixed(3)}`, r.summary ? el('p', {}, r.summary) : el('pre', {}, r.text))));
}

export function renderTriples(triples) {
  fill($('triples'),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Disease'), el('th', { scope: 'col' }, 'Relation'), el('th', { scope: 'col' }, 'Feature / key difference'), el('th', { scope: 'col' }, 'Weight'))),
    el('tbody', {}, triples.map((t) => el('tr', {}, el('td', {}, t.subject), el('td', {}, t.relation), el('td', {}, t.object), el('td', {}, t.weight === null ? '' : t.weight.toFixed(2))))));
}

export function renderTrace(result) {
  const t = result.trace;
  const timings = Object.entries(t.timingsMs).map(([k, v]) => `${k} ${v.toFixed(0)} ms`).join(' · ');
  fill($('trace'),
    el('h3', {}, `First-pass differential (${answeredBy(result)})`),
    el('ol', {}, result.differential.slice(0, 5).map((d) =>
      el('li', {}, `${d.disease} ${pct(d.score)}`, el('ul', {}, d.evidence.map((e) => el('li', {}, e)))))),
    el('h3', {}, 'Matched graph features'),
    el('ul', {}, t.matches.map((m) => el('li', {}, `${m.polarity === 'absent' ? 'no ' : ''}${m.featureLabel ?? m.featureText} (similarity ${m.similarity.toFixed(2)})`))),
    el('h3', {}, 'Chosen subcategory'),
    el('p', {}, t.chosenSubcategory ? `${t.chosenSubcategory.name} (${t.chosenSubcategory.votes} votes)` : 'none'),
    el('p', { class: 'help' }, timings));
}
