import assert from 'node:assert/strict';
import { esc } from '../../src/eval/html-escape.js';
import { icdLevels } from '../../src/eval/hierarchy-levels.js';
import { latencyByStage, percentile } from '../../src/eval/percentile.js';
import { renderHtmlReport } from '../../src/eval/report-html.js';
import { assembleReport } from '../../src/eval/report-json.js';
import type { EvalParams } from '../../src/eval/run-eval.js';
import type { DialogueOutcome } from '../../src/eval/dialogue-protocols.js';
import type { BuildManifest } from '../../src/domain/artifacts.js';
import { caseOf, hierarchySnapshot } from './eval-support.js';

const params: EvalParams = {
  protocols: ['full', 'interactive'], questions: [0, 1, 3], maskRates: [0, 1], ranker: 'information-gain', confidence: 0.9, input: 'findings',
  options: {}, seed: 3, limit: null, allowContentDuplicates: false, testSource: 'ddxplus:x',
};
const manifest = { buildId: 'kg-1', source: 'ddxplus:train', embedder: 'hashed', embeddingDim: 4 } as BuildManifest;

function dialogue(tops: string[][], truthId = 'dis:pneumonia'): DialogueOutcome {
  const runs = tops.map((t, i) => ({ recordId: `r${i}`, topAt: new Map(t.map((d, k) => [[0, 1, 3][k]!, d] as const)), questionsToConfidence: i === 0 ? 1 : null, topAtConfidence: i === 0 ? t[1]! : null }));
  const acc = (j: number) => tops.filter((t) => t[j] === truthId).length / tops.length;
  return { row: { ranker: 'information-gain', patients: tops.length, accuracy: { 0: acc(0), 1: acc(1), 3: acc(2) }, meanQuestionsToConfidence: 2, accuracyAtConfidence: 0.5 }, runs, startMs: [1, 2], answerMs: [0.5, 1.5, 2.5] };
}

describe('eval report', () => {
  it('derives ICD-10 chapter and 3-character block from release_conditions codes', () => {
    assert.deepEqual(icdLevels('j17, j18'), { icdBlock: 'J17', icdChapter: 'X' });
    assert.deepEqual(icdLevels('I20.9'), { icdBlock: 'I20', icdChapter: 'IX' });
    assert.deepEqual(icdLevels('g44.009'), { icdBlock: 'G44', icdChapter: 'VI' });
    assert.deepEqual(icdLevels('S22.9'), { icdBlock: 'S22', icdChapter: 'XIX' });
    assert.deepEqual(icdLevels(null), { icdBlock: null, icdChapter: null });
    assert.deepEqual(icdLevels('not a code'), { icdBlock: null, icdChapter: null });
  });

  it('computes nearest-rank percentiles and per-stage latency', () => {
    const v = Array.from({ length: 100 }, (_, i) => i + 1);
    assert.deepEqual([percentile(v, 50), percentile(v, 95), percentile(v, 99), percentile(v, 100)], [50, 95, 99, 100]);
    assert.equal(percentile([7], 99), 7);
    assert.ok(Number.isNaN(percentile([], 50)));
    const l = latencyByStage([{ match: 1, total: 10 }, { match: 3, total: 30 }, { total: 20 }]);
    assert.deepEqual([l.match!.n, l.match!.p50, l.total!.p50, l.total!.p99, l.total!.mean], [2, 1, 20, 30, 20]);
  });

  it('escapes every character that could open markup', () => {
    assert.equal(esc(`<script>alert("x")</script> & 'y'`), '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;');
  });

  it('assembles the documented JSON shape', () => {
    const s = hierarchySnapshot();
    const cases = [caseOf(s, 'r1', 'Pneumonia', ['dis:pneumonia'], { match: 2, total: 9 }), caseOf(s, 'r2', 'Pneumonia', ['dis:bronchitis'], { match: 4, total: 11 })];
    const r = assembleReport({ cases, interactive: dialogue([['dis:urti', 'dis:pneumonia', 'dis:pneumonia'], ['dis:urti', 'dis:urti', 'dis:pneumonia']]), masking: new Map([[1, dialogue([['dis:urti', 'dis:urti', 'dis:urti']])]]), params, confidence: 0.9, manifest, buildId: 'kg-1', n: 2 });
    for (const k of ['n', 'l1', 'l2', 'l3', 'top3', 'top5', 'l1_icd', 'l2_icd', 'interactive', 'interactive_stats', 'masking', 'latency_ms', 'per_disease', 'confusions', 'gate', 'params', 'seed']) assert.ok(k in r, k);
    assert.equal(r.schema, 'dxgraph-eval/1');
    assert.deepEqual([r.n, r.l3, r.l2, r.seed], [2, 0.5, 1, 3]);
    assert.deepEqual(r.interactive, { '0': 0, '1': 0.5, '3': 1 });
    assert.deepEqual(Object.keys(r.masking!), ['100']);
    assert.equal(r.interactive_stats!.reached_confident_share, 0.5);
    assert.deepEqual(Object.keys(r.latency_ms).sort(), ['match', 'session.answer', 'session.start', 'total']);
    assert.equal(r.latency_ms['session.answer']!.p50, 1.5);
    assert.equal(r.confusions[0]!.predicted, 'Bronchitis');
    assert.equal((r.params as { allow_content_duplicates: boolean }).allow_content_duplicates, false);
    JSON.parse(JSON.stringify(r)); // plain JSON: no Maps, no NaN surprises
  });

  it('renders escaped, self-contained HTML with the charts as inline SVG', () => {
    const s = hierarchySnapshot();
    const evil = '<img src=x onerror=alert(1)>';
    const cases = [caseOf(s, 'r1', evil, ['dis:pneumonia']), caseOf(s, 'r2', 'Pneumonia', ['dis:pneumonia'])];
    const r = assembleReport({ cases, interactive: dialogue([['dis:urti', 'dis:pneumonia', 'dis:pneumonia']]), masking: new Map(), params, confidence: 0.9, manifest: { ...manifest, source: `a"b<c>` }, buildId: 'kg-1', n: 2 });
    const html = renderHtmlReport(r);
    assert.ok(!html.includes(evil) && html.includes('&lt;img src=x onerror=alert(1)&gt;'));
    assert.ok(!html.includes('a"b<c>'));
    assert.ok(!/<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/.test(html), 'no script, no network');
    assert.equal((html.match(/<svg /g) ?? []).length, 2);
    assert.ok(html.includes('<polyline') && html.includes('class="bar"'));
  });
});
