// The copilot page: a first description starts a consultation session (follow-ups that
// update the differential) and a diagnose call (trace: gate, differences KG, similar
// records, report). Everything server-sent is inserted as text, never as HTML.
import { api, ApiError, setApiKey } from './api.js';
import { $, el, fill, pct, probabilityMeaning, ranksOnly, scoreText } from './dom.js';
import { parseEhr } from './ehr.js';
import { differencesSvg } from './graph.js';
import { renderAnsweredBy, renderDifferential, renderGate, renderRecords, renderReport, renderTrace, renderTriples } from './panels.js';
import { answerText, questionNode } from './questions.js';

const state = { ehr: null, session: null, diagnosis: null, answered: [], paths: null };

const status = (msg) => fill($('status'), msg);
const showError = (msg) => fill($('error'), msg ?? '');

function setBusy(busy) {
  for (const b of document.querySelectorAll('#ask button, #questions button')) b.disabled = busy;
  document.body.setAttribute('aria-busy', String(busy));
}

/** diseaseId → {category, subcategory}, read once from the KG (falls back to the trace). */
async function diseasePaths() {
  if (state.paths) return state.paths;
  const { diseases } = await api.diseases();
  state.paths = new Map(diseases.map((d) => [d.id, { category: d.category, subcategory: d.subcategory }]));
  return state.paths;
}

function readForm() {
  const body = {};
  const text = $('text').value.trim();
  if (text) body.text = text;
  if (state.ehr?.findings.length) body.findings = state.ehr.findings;
  const age = $('age').value.trim();
  if (age) {
    const n = Number(age);
    if (!Number.isInteger(n) || n < 0 || n > 130) throw new FieldError('age', 'Age must be a whole number from 0 to 130.');
    body.age = n;
  }
  if ($('sex').value) body.sex = $('sex').value;
  if (!body.text && !body.findings) throw new FieldError('text', "Describe the patient's manifestations (or load an EHR JSON file).");
  return body;
}

class FieldError extends Error {
  constructor(field, message) {
    super(message);
    this.field = field;
  }
}

function currentDifferential() {
  const fromTrace = new Map((state.diagnosis?.differential ?? []).map((d) => [d.diseaseId, d]));
  if (!state.session) return state.diagnosis?.differential ?? [];
  return state.session.differential.map((d) => {
    const path = state.paths?.get(d.diseaseId) ?? fromTrace.get(d.diseaseId) ?? {};
    return { diseaseId: d.diseaseId, disease: d.disease, score: d.probability, category: path.category, subcategory: path.subcategory };
  });
}

function renderSession() {
  const dd = currentDifferential();
  renderDifferential(dd, 10, { ranksOnly: ranksOnly(state.diagnosis?.probability) });
  fill($('dd-meaning'), probabilityMeaning(state.diagnosis?.probability ?? null, state.answered.length > 0));
  const s = state.session;
  fill($('stop'), s?.insufficient ? `Too little to rank yet: ${s.insufficient.message}.` : s?.stop.stop ? (s.stop.reason === 'confident' ? `Confident enough to stop asking (top ${pct(s.stop.topProbability)}).` : 'No further questions to ask.') : s && s.turnsLeft <= 5 ? `${s.turnsLeft} answer${s.turnsLeft === 1 ? '' : 's'} left in this consultation.` : '');
  if (!s) fill($('questions'), el('p', { class: 'help' }, 'Follow-up sessions are not available on this server.'));
  else if (s.questions.length === 0) fill($('questions'), el('p', { class: 'help' }, 'No more questions.'));
  else fill($('questions'), s.questions.map((q) => questionNode(q, onAnswer)));
  fill($('answers'), state.answered.map(({ q, a }) => el('li', {}, `${q.text} — ${answerText(q, a)}`)));
  if (state.diagnosis) renderGraph(dd[0]?.diseaseId ?? null);
}

function renderGraph(top) {
  const t = state.diagnosis.trace;
  fill($('graph'), t.differencesKg.length ? differencesSvg(t.differencesKg, { top, title: `Differences subgraph of ${t.chosenSubcategory?.name ?? 'the chosen subcategory'}` }) : el('p', { class: 'help' }, 'No differences subgraph (no subcategory chosen).'));
  fill($('graph-caption'), t.chosenSubcategory ? `Subcategory “${t.chosenSubcategory.name}”: its diseases (blue; the current top in purple), their strongest manifestations (green: present in at least 30% of the disease's records, most telling against its siblings first) and key differences (orange, dashed).` : '');
}

async function onSubmit(ev) {
  ev.preventDefault();
  showError('');
  let body;
  try {
    body = readForm();
  } catch (e) {
    showError(e.message);
    $(e.field ?? 'text').focus();
    return;
  }
  setBusy(true);
  status('Consulting the knowledge graph…');
  const [session, diagnosis] = await Promise.allSettled([api.startSession(body), api.diagnose(body)]);
  await diseasePaths().catch(() => null);
  setBusy(false);
  const sessionOff = session.status === 'rejected' && session.reason instanceof ApiError && session.reason.status === 404;
  const failed = [session, diagnosis].find((r) => r.status === 'rejected' && !(r === session && sessionOff));
  if (failed) {
    status('');
    showError(`Could not get a differential: ${failed.reason.message}`);
    return;
  }
  state.session = sessionOff ? null : session.value;
  state.diagnosis = diagnosis.value;
  state.answered = [];
  $('results').hidden = false;
  renderGate(state.diagnosis.trace.gate);
  renderAnsweredBy(state.diagnosis);
  renderReport(state.diagnosis);
  renderRecords(state.diagnosis.trace.retrieved);
  renderTriples(state.diagnosis.trace.differencesKg);
  renderTrace(state.diagnosis);
  renderSession();
  const top = currentDifferential()[0];
  status(top ? `Differential ready: ${top.disease} first (${scoreText(top.score, state.diagnosis?.probability)}).` : 'No diagnosis found.');
  if (state.diagnosis.report?.status === 'pending') void awaitReport(state.diagnosis.report.href, state.diagnosis);
}

/** Polls the LLM report's href (issue 48) until it is written, failed or gone; a newer question stops the wait. */
async function awaitReport(href, asked) {
  const pause = (ms) => new Promise((r) => setTimeout(r, ms));
  for (let tries = 0; tries < 300 && state.diagnosis === asked; tries++) {
    await pause(2000);
    let got;
    try {
      got = await api.report(href);
    } catch (e) {
      if (state.diagnosis === asked) renderReport({ ...asked, report: { status: 'failed', error: e instanceof ApiError && e.status === 404 ? 'it expired' : e.message } });
      return;
    }
    if (state.diagnosis !== asked) return;
    if (got?.report?.status === 'pending') continue;
    state.report = got;
    renderReport(got);
    status(got.report?.status === 'done' ? `The language model's report arrived (${got.model ?? 'model'}).` : 'The language model gave no report; the differential stands.');
    return;
  }
}

async function onAnswer(q, a) {
  showError('');
  setBusy(true);
  try {
    state.session = await api.answer(state.session.sessionId, [{ questionId: q.id, answer: a }]);
    state.answered = [...state.answered.filter((x) => x.q.id !== q.id), { q, a }];
    renderSession();
    const top = currentDifferential()[0];
    status(`Differential updated after ${state.answered.length} answer${state.answered.length === 1 ? '' : 's'}: ${top?.disease ?? 'none'} first (${top ? scoreText(top.score, state.diagnosis?.probability) : '–'}).`);
    $('questions').querySelector('button')?.focus();
  } catch (e) {
    showError(answerError(e));
  } finally {
    setBusy(false);
  }
}

/** Session refusals in the clinician's words (the server's message is kept for the rest). */
function answerError(e) {
  if (!(e instanceof ApiError)) return `The answer was not recorded: ${e.message}`;
  if (e.status === 404) return 'This consultation has ended (expired, or started with another API key); start it again.';
  if (e.status === 409) return 'This consultation reached its limit of answers; start a new one to go on.';
  return `The answer was not recorded: ${e.message}`;
}

async function onEhrFile() {
  const file = $('ehr').files?.[0];
  state.ehr = null;
  fill($('ehr-status'), '');
  if (!file) return;
  try {
    const ehr = parseEhr(await file.text());
    state.ehr = ehr;
    if (ehr.text) $('text').value = ehr.text;
    if (ehr.age !== null) $('age').value = String(ehr.age);
    if (ehr.sex !== null) $('sex').value = ehr.sex;
    fill($('ehr-status'), `Loaded ${file.name}: ${ehr.findings.length} structured finding${ehr.findings.length === 1 ? '' : 's'}${ehr.text ? ' and a text' : ''}.`);
  } catch (e) {
    fill($('ehr-status'), `Could not read ${file.name}: ${e.message}.`);
  }
}

$('ask').addEventListener('submit', onSubmit);
$('ehr').addEventListener('change', onEhrFile);
$('apikey').addEventListener('input', (e) => setApiKey(e.target.value));
