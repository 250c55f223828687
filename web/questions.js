// Follow-up questions as clickable answers, one control per answer type (the type comes
// from the knowledge graph: DDXPlus data_type B/C/M, or the source's own declaration):
// yes / no / don't know buttons, single-choice chips that answer at once, multiple-choice
// toggles then "Answer", a number field.
import { el } from './dom.js';

const YES = { type: 'yes' };
const NO = { type: 'no' };
const UNKNOWN = { type: 'unknown' };

function optionChips(q, onAnswer) {
  if (q.answerType === 'one-of') {
    return el('div', { class: 'chips', role: 'group', 'aria-label': 'Options (choose one)' },
      q.options.map((o) => el('button', { type: 'button', onclick: () => onAnswer(q, { type: 'options', optionIds: [o.id] }) }, o.label)));
  }
  const chosen = new Set();
  const toggle = (o) => (ev) => {
    const b = ev.currentTarget;
    if (chosen.has(o.id)) chosen.delete(o.id);
    else chosen.add(o.id);
    b.setAttribute('aria-pressed', String(chosen.has(o.id)));
  };
  return [
    el('div', { class: 'chips', role: 'group', 'aria-label': 'Options (choose any)' },
      q.options.map((o) => el('button', { type: 'button', 'aria-pressed': 'false', onclick: toggle(o) }, o.label))),
    el('button', { type: 'button', class: 'primary', onclick: () => onAnswer(q, chosen.size ? { type: 'options', optionIds: [...chosen] } : NO) }, 'Answer with the selected'),
  ];
}

function numberInput(q, onAnswer) {
  const id = `num-${q.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const input = el('input', { id, type: 'number', inputmode: 'decimal', min: q.options[0]?.valueCode ?? null, max: q.options.at(-1)?.valueCode ?? null });
  const send = () => {
    const v = Number(input.value);
    if (input.value.trim() !== '' && Number.isFinite(v)) onAnswer(q, { type: 'number', value: v });
    else input.focus();
  };
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      send();
    }
  });
  return el('div', { class: 'actions' }, el('label', { for: id }, 'Value'), input, el('button', { type: 'button', onclick: send }, 'Answer'));
}

const HOW = { 'yes-no': 'Yes or no', 'one-of': 'Choose one', 'several-of': 'Choose any that apply', number: 'Enter a number' };

/** One <fieldset> per question; `onAnswer(question, answer)` posts it. */
export function questionNode(q, onAnswer) {
  const yesNo = q.answerType === 'yes-no';
  const body = yesNo ? [] : q.answerType === 'number' ? [numberInput(q, onAnswer)] : [optionChips(q, onAnswer)].flat();
  const buttons = el('div', { class: 'actions' },
    yesNo ? el('button', { type: 'button', onclick: () => onAnswer(q, YES) }, 'Yes') : null,
    el('button', { type: 'button', onclick: () => onAnswer(q, NO) }, yesNo ? 'No' : 'None of these'),
    el('button', { type: 'button', onclick: () => onAnswer(q, UNKNOWN) }, "Don't know"));
  const how = el('p', { class: 'help answer-type' }, HOW[q.answerType] ?? '');
  return el('fieldset', { class: 'question', 'data-question-id': q.id, 'data-answer-type': q.answerType }, el('legend', {}, q.text), how, ...body, buttons);
}

/** A readable answer for the "answers so far" list. */
export function answerText(q, a) {
  if (a.type === 'options') return a.optionIds.map((id) => q.options.find((o) => o.id === id)?.label ?? id).join(', ');
  if (a.type === 'number') return String(a.value);
  return { yes: 'yes', no: q.answerType === 'yes-no' ? 'no' : 'none of these', unknown: "don't know" }[a.type];
}
