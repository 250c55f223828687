import assert from 'node:assert/strict';
import { getLlama, LlamaLogLevel, type Llama } from 'node-llama-cpp';
import { z } from 'zod';
import { DEFAULT_GRAMMAR_CAPS, toGrammarSchema, type GrammarSchema } from '../../src/adapters/llm/grammar-schema.js';
import { compactJsonGbnf, GRAMMAR_END } from '../../src/adapters/llm/json-gbnf.js';
import { llmAnswerSchema } from '../../src/reasoners/llm-reasoner.js';
import { TopicsSchema } from '../../kg-build/hierarchy-llm.js';

/**
 * The compact-JSON grammar (json-gbnf.ts) checked by llama.cpp's own grammar parser and matcher
 * (the prebuilt runtime `npm run setup` installs; no model is loaded): what it accepts is JSON
 * of the schema's shape without layout, whole, followed by the end marker.
 */
function grammarOf(schema: z.ZodType): GrammarSchema {
  const g = toGrammarSchema(z.toJSONSchema(schema, { io: 'input' }), { stringChars: 40, arrayItems: 3 });
  assert.ok(g.ok);
  return g.value;
}

describe('compact JSON grammar (llama.cpp GBNF)', function () {
  let llama: Llama;
  before(async () => {
    llama = await getLlama({ gpu: false, build: 'never', usePrebuiltBinaries: true, skipDownload: true, progressLogs: false, logLevel: LlamaLogLevel.error });
  });
  after(async () => llama?.dispose());

  /** Whether llama.cpp's matcher takes `text` whole under the grammar (node-llama-cpp's own grammar check, internal in 3.21). */
  async function accepts(schema: GrammarSchema, text: string): Promise<boolean> {
    const g = await llama.createGrammar({ grammar: compactJsonGbnf(schema) });
    return (g as unknown as { _testText(t: string): boolean })._testText(text + GRAMMAR_END);
  }

  it('takes a diagnose answer written without layout, and no indented, reordered, overlong or unknown-disease one', async () => {
    const g = grammarOf(llmAnswerSchema(['Pneumonia', 'Acute "viral" bronchitis'], { advice: false }));
    const answer = { diagnoses: [{ disease: 'Acute "viral" bronchitis', explanation: 'Wheeze\nand cough.', confidence: 0.7 }, { disease: 'Pneumonia', explanation: '', confidence: 0.2 }], followUpQuestions: ['Fever?'], treatments: [], medications: [], narrative: 'Bronchitis is likely.' };
    assert.ok(await accepts(g, JSON.stringify(answer)), 'compact JSON of the schema, a quote and an escaped newline inside');
    assert.ok(!(await accepts(g, JSON.stringify(answer, null, 2))), 'no layout');
    assert.ok(!(await accepts(g, JSON.stringify({ ...answer, diagnoses: [{ ...answer.diagnoses[0], disease: 'Flu' }] }))), 'diseases of the list only');
    const { narrative, ...rest } = answer;
    assert.ok(!(await accepts(g, JSON.stringify({ narrative, ...rest }))), 'keys in the schema order');
    assert.ok(!(await accepts(g, JSON.stringify({ ...answer, narrative: 'x'.repeat(41) }))), 'strings capped (40 here)');
    assert.ok(!(await accepts(g, JSON.stringify({ ...answer, treatments: ['rest'] }))), 'no advice lists when advice is not shown');
    assert.ok(!(await accepts(g, JSON.stringify({ ...answer, diagnoses: [] }))), 'at least one diagnosis');
    assert.ok(!(await accepts(g, JSON.stringify({ ...answer, followUpQuestions: ['a?', 'b?', 'c?', 'd?'] }))), 'arrays capped (3 here)');
    assert.ok(!(await accepts(g, JSON.stringify(answer).slice(0, -1))), 'the whole object');
  });

  it('takes the other value kinds the grammar schema makes: numbers, integers, booleans, null alternatives, constants, one-item arrays', async () => {
    const g = grammarOf(z.object({ n: z.number(), i: z.number().int(), b: z.boolean(), sex: z.enum(['M', 'F']).nullable(), kind: z.literal('dx'), one: z.array(z.string()).min(1).max(1) }));
    assert.ok(await accepts(g, '{"n":-12.5e3,"i":42,"b":false,"sex":null,"kind":"dx","one":["x"]}'));
    assert.ok(await accepts(g, '{"n":0,"i":-7,"b":true,"sex":"F","kind":"dx","one":[""]}'));
    assert.ok(!(await accepts(g, '{"n":1,"i":4.5,"b":true,"sex":"F","kind":"dx","one":["x"]}')), 'an integer has no fraction');
    assert.ok(!(await accepts(g, '{"n":1,"i":4,"b":true,"sex":"X","kind":"dx","one":["x"]}')), 'enum or null only');
    assert.ok(!(await accepts(g, '{"n":1,"i":4,"b":true,"sex":"F","kind":"dx","one":["x","y"]}')), 'one item');
    assert.ok(!(await accepts(g, '{"n":1,"i":4,"b":true,"sex":"F","kind":"rx","one":["x"]}')), 'the constant');
  });

  it("parses the build's hierarchy schema at the product's caps (nested arrays of objects of strings), which inline strings made too big for llama.cpp", async () => {
    const g = toGrammarSchema(z.toJSONSchema(TopicsSchema, { io: 'input' }), DEFAULT_GRAMMAR_CAPS);
    assert.ok(g.ok);
    const sub = (name: string) => ({ name, description: 'Airway infections.', diseases: ['Pneumonia', 'Bronchitis'] });
    const answer = { categories: [{ name: 'Respiratory', subcategories: [sub('Lower airway'), sub('Upper airway')] }, { name: 'Cardiac', subcategories: [sub('Rhythm')] }] };
    assert.ok(await accepts(g.value, JSON.stringify(answer)));
    assert.ok(!(await accepts(g.value, JSON.stringify({ categories: [{ name: '', subcategories: [sub('x')] }] }))), 'a name has at least one character');
    assert.ok(!(await accepts(g.value, JSON.stringify({ categories: [{ name: 'x', subcategories: [] }] }))), 'at least one subcategory');
  });

  it('refuses a schema node it has no rule for', () => {
    assert.throws(() => compactJsonGbnf({ type: 'tuple' }), /no GBNF/);
  });
});
