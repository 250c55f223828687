import { strict as assert } from 'node:assert';
import { annotateByMasking, type AnnotationExample, type Diagnoser, type RetrievalProbe } from '../../src/gate/masking-annotation.js';

/**
 * A rule diagnoser: "flu" needs both fever and myalgia; fever alone gives "cold" then "flu";
 * anything else gives "cold". Every call is recorded.
 */
class RuleDiagnoser implements Diagnoser {
  readonly calls: string[][] = [];
  async diagnose(sentences: readonly string[]): Promise<readonly string[]> {
    this.calls.push([...sentences]);
    const has = (w: string) => sentences.some((s) => s.includes(w));
    if (has('fever') && has('myalgia')) return ['flu', 'cold'];
    if (has('fever')) return ['cold', 'flu'];
    return ['cold'];
  }
}

/** Sentences with "cough" retrieve flu records; "swelling" retrieves pe records. */
class KeywordProbe implements RetrievalProbe {
  readonly calls: { sentence: string; goldDiseaseId: string; excludeRecordId: string }[] = [];
  async retrievesGold(input: { sentence: string; goldDiseaseId: string; excludeRecordId: string }): Promise<boolean> {
    this.calls.push(input);
    return (input.sentence.includes('cough') && input.goldDiseaseId === 'flu') || (input.sentence.includes('swelling') && input.goldDiseaseId === 'pe');
  }
}

const FLU: AnnotationExample = { id: 'r:flu', goldDiseaseId: 'flu', sentences: ['fever 39.1 C', 'diffuse myalgia', 'lives with a cat', 'dry cough'] };
const PE: AnnotationExample = { id: 'r:pe', goldDiseaseId: 'pe', sentences: ['left leg swelling', 'bought a new car'] };

describe('gate: masking annotation (FIND 3.2.2)', () => {
  it('labels a correctly diagnosed example: A when masking breaks it, B when a C sentence retrieves, else C', async () => {
    const diagnoser = new RuleDiagnoser();
    const probe = new KeywordProbe();
    const r = await annotateByMasking([FLU], { diagnoser, probe });
    assert.deepEqual(r.sentences.map((s) => [s.text, s.label, s.reason]), [
      ['fever 39.1 C', 'A', 'masked-wrong'],
      ['diffuse myalgia', 'A', 'masked-wrong'],
      ['lives with a cat', 'C', 'masked-still-correct'],
      ['dry cough', 'B', 'retrieves-gold'],
    ]);
    // One full call plus one per masked sentence; each masked input lacks exactly that sentence.
    assert.equal(diagnoser.calls.length, 5);
    assert.deepEqual(diagnoser.calls[3], ['fever 39.1 C', 'diffuse myalgia', 'dry cough']);
    // The probe is only asked about sentences that survived masking (A needs no retrieval).
    assert.deepEqual(probe.calls.map((c) => c.sentence), ['lives with a cat', 'dry cough']);
    assert.deepEqual(r.stats.labels, { A: 2, B: 1, C: 1 });
    assert.equal(r.stats.unmaskedCorrect, 1);
  });

  it('labels a wrongly diagnosed example by retrieval alone, excluding its own record', async () => {
    const diagnoser = new RuleDiagnoser();
    const probe = new KeywordProbe();
    const r = await annotateByMasking([PE], { diagnoser, probe });
    assert.deepEqual(r.sentences.map((s) => s.label), ['B', 'C']);
    assert.deepEqual(r.sentences.map((s) => s.reason), ['retrieves-gold', 'no-retrieval']);
    assert.equal(diagnoser.calls.length, 1, 'no masking when the full input is already wrong');
    assert.ok(probe.calls.every((c) => c.excludeRecordId === 'r:pe' && c.goldDiseaseId === 'pe'));
  });

  it('ICA-RAG variant has no C→B upgrade when the full input is correct', async () => {
    const r = await annotateByMasking([FLU], { diagnoser: new RuleDiagnoser(), probe: new KeywordProbe() }, { variant: 'ica-rag' });
    assert.deepEqual(r.sentences.map((s) => s.label), ['A', 'A', 'C', 'C']);
  });

  it('correctAtRank widens "correct": with top-2, masking myalgia no longer breaks the answer', async () => {
    const r = await annotateByMasking([FLU], { diagnoser: new RuleDiagnoser(), probe: new KeywordProbe() }, { correctAtRank: 2 });
    assert.deepEqual(r.sentences.map((s) => s.label), ['A', 'C', 'C', 'B']);
  });

  it('bounds the work and keeps input order under concurrency', async () => {
    const many = Array.from({ length: 9 }, (_, i) => ({ ...(i % 2 ? PE : FLU), id: `r:${i}` }));
    const long = { id: 'r:long', goldDiseaseId: 'flu', sentences: Array.from({ length: 80 }, (_, i) => `s${i}`) };
    const r = await annotateByMasking([long, ...many], { diagnoser: new RuleDiagnoser(), probe: new KeywordProbe() }, { maxExamples: 6, maxSentences: 60, concurrency: 3 });
    assert.equal(r.stats.skipped, 1);
    assert.equal(r.stats.examples, 5);
    assert.deepEqual([...new Set(r.sentences.map((s) => s.exampleId))], ['r:0', 'r:1', 'r:2', 'r:3', 'r:4']);
  });
});
