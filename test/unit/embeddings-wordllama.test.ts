import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArtifactError } from '../../src/errors.js';
import { WordLlamaEmbedder } from '../../src/adapters/embeddings/wordllama-embedder.js';
import { DEFAULT_WORDLLAMA_DIR, parseSafetensorsMatrix, WORDLLAMA_TOKENIZER_FILE, wordLlamaTokenizerOf } from '../../src/adapters/embeddings/wordllama-model.js';
import { segmentationIsExact } from '../../src/adapters/embeddings/wordllama-tokenize.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';

/**
 * The WordLlama embedder against the Python reference (wordllama 0.4.0.post1 from PyPI): token
 * ids and unit vectors of 20 texts generated once by embeddings-wordllama.vectors.py. Needs the
 * model that `npm run setup` installs into .models/wordllama.
 */
interface Case {
  text: string;
  ids: number[];
  v256: number[];
  v64: number[];
}
const fixture = JSON.parse(readFileSync(new URL('./embeddings-wordllama.vectors.json', import.meta.url), 'utf8')) as { cases: Case[] };

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};
const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));

async function mustLoad(dim?: 64 | 128 | 256): Promise<WordLlamaEmbedder> {
  const r = await WordLlamaEmbedder.load(dim ? { dim } : {});
  if (!r.ok) assert.fail(`${r.error.message} (the unit tests need the model that npm run setup installs)`);
  return r.value;
}

describe('WordLlamaEmbedder (l2_supercat) vs the Python reference', () => {
  let wl256: WordLlamaEmbedder;
  let wl64: WordLlamaEmbedder;
  before(async () => {
    wl256 = await mustLoad();
    wl64 = await mustLoad(64);
  });

  it('has 20 reference texts, among them non-ASCII, whitespace and a long clinical note', () => {
    assert.equal(fixture.cases.length, 20);
    assert.ok(fixture.cases.some((c) => c.ids.length > 40));
    assert.ok(fixture.cases.some((c) => /[^\x00-\x7f]/.test(c.text)));
  });

  it('tokenizes exactly as Python (Llama-2 BPE with byte fallback, no BOS)', () => {
    for (const c of fixture.cases) assert.deepEqual(wl256.tokenIds(c.text), c.ids, JSON.stringify(c.text));
  });

  it('gives the same unit vectors at 256 dims (cosine > 0.9999)', () => {
    for (const c of fixture.cases) {
      const v = wl256.embedVector(c.text);
      assert.equal(v.length, 256);
      assert.ok(Math.abs(dot(v, v) - 1) < 1e-5, 'unit length');
      const cos = cosine(v, c.v256);
      assert.ok(cos > 0.9999, `${JSON.stringify(c.text)}: cosine ${cos}`);
      const maxDiff = Math.max(...c.v256.map((x, i) => Math.abs(x - v[i]!)));
      assert.ok(maxDiff < 1e-4, `${JSON.stringify(c.text)}: max |diff| ${maxDiff}`);
    }
  });

  it('gives the same vectors truncated to 64 dims (Matryoshka, truncation before pooling)', () => {
    assert.equal(wl64.dim, 64);
    assert.equal(wl64.id, 'wordllama-l2-supercat-64');
    const view = wl256.withDim(64);
    assert.ok(view.ok);
    for (const c of fixture.cases) {
      const cos = cosine(wl64.embedVector(c.text), c.v64);
      assert.ok(cos > 0.9999, `${JSON.stringify(c.text)}: cosine ${cos}`);
      if (view.ok) assert.deepEqual(view.value.embedVector(c.text), wl64.embedVector(c.text));
    }
    assert.equal(wl256.withDim(512).ok, false);
  });

  it('batch, query and document paths agree; the id names the model and dims', async () => {
    const texts = fixture.cases.slice(0, 4).map((c) => c.text);
    const batch = wl256.embedVectors(texts);
    const docs = await wl256.embedDocuments(texts);
    const q = await wl256.embedQuery(texts[0]!);
    assert.deepEqual(Array.from(batch[0]!), q);
    batch.forEach((v, i) => assert.deepEqual(Array.from(v), docs[i]));
    assert.equal(wl256.id, 'wordllama-l2-supercat-256');
  });

  it('loadSync gives the same embedder as load', () => {
    const sync = WordLlamaEmbedder.loadSync({ dim: 128 });
    assert.ok(sync.ok);
    if (!sync.ok) return;
    assert.equal(sync.value.id, 'wordllama-l2-supercat-128');
    const view = wl256.withDim(128);
    assert.ok(view.ok && view.value.embedVector(fixture.cases[10]!.text).every((x, i) => x === sync.value.embedVector(fixture.cases[10]!.text)[i]));
    const missing = WordLlamaEmbedder.loadSync({ dir: mkdtempSync(join(tmpdir(), 'wl-missing-sync-')) });
    assert.ok(!missing.ok && missing.error instanceof ArtifactError && /is missing/.test(missing.error.message));
  });

  it('returns the zero vector for a text without tokens', () => {
    const v = wl256.embedVector('');
    assert.equal(v.length, 256);
    assert.ok(v.every((x) => x === 0));
  });

  it('carries meaning that hashed n-grams cannot: a lay phrase is nearer its clinical question than a distractor', () => {
    const near = (phrase: string, right: string, wrong: string) => {
      const [p, r, w] = wl256.embedVectors([phrase, right, wrong]);
      assert.ok(dot(p!, r!) > dot(p!, w!), `${phrase}: ${dot(p!, r!)} vs ${dot(p!, w!)}`);
    };
    near('smoker', 'Do you smoke cigarettes?', 'Do you have a fever (either felt or measured with a thermometer)?');
    near('coughing up blood', 'Have you been coughing up blood?', 'Do you have a sore throat?');
    near('feverish', 'Do you have a fever (either felt or measured with a thermometer)?', 'Do you have a cough?');
  });
});

describe('WordLlamaTokenizer: word-by-word ids equal whole-text ids', () => {
  it('on 100 DDXPlus record texts, the fixture and awkward spacing, Unicode and added tokens', async () => {
    // The installed tokenizer built as the model loader builds it; the 256-dim weights, which
    // this story does not read, are not parsed again (the loads are the stories above; issue 49).
    const tok = wordLlamaTokenizerOf(JSON.parse(readFileSync(join(DEFAULT_WORDLLAMA_DIR, WORDLLAMA_TOKENIZER_FILE), 'utf8')) as object);
    const source = await openSource(parseSourceSpec('ddxplus:datasets/ddxplus'), { strict: false });
    const texts: string[] = [];
    try {
      for await (const r of source.records()) if (texts.push(r.text) >= 100) break;
    } finally {
      await source.close();
    }
    assert.ok(texts.every((t) => t.length > 100));
    texts.push(...fixture.cases.map((c) => c.text));
    texts.push(' ', '   ', 'a ', ' a', 'a  b   c    ', '\u2581already\u2581marked', 'x <s> y</s>', 'tab\tsep\r\nlines', '🤒🤒 fever', 'ﬁne ligatures');
    const whole = texts.map((t) => tok.whole(t));
    texts.forEach((t, i) => assert.deepEqual(tok.ids(t), whole[i], JSON.stringify(t.slice(0, 80))));
    // Twice: the second pass is served from the cache (the reference ids are the same ids).
    texts.slice(0, 20).forEach((t, i) => assert.deepEqual(tok.ids(t), whole[i]));
  });

  it('only segments a tokenizer whose tokens never hold "\u2581" after another character', () => {
    const json = JSON.parse(readFileSync(join(DEFAULT_WORDLLAMA_DIR, WORDLLAMA_TOKENIZER_FILE), 'utf8'));
    assert.equal(segmentationIsExact(json), true);
    assert.equal(segmentationIsExact({ ...json, model: { ...json.model, vocab: { ...json.model.vocab, 'a\u2581b': 32000 } } }), false);
    assert.equal(segmentationIsExact({ ...json, pre_tokenizer: { type: 'Metaspace' } }), false);
    assert.equal(segmentationIsExact({ ...json, normalizer: null }), false);
  });
});

describe('WordLlamaEmbedder.load failures are Result values', () => {
  it('names the missing file and the setup step', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-missing-'));
    const r = await WordLlamaEmbedder.load({ dir });
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.ok(r.error instanceof ArtifactError);
    assert.match(r.error.message, /l2_supercat_256\.safetensors is missing/);
    assert.match(r.error.message, /npm run setup/);
  });

  it('rejects a corrupt weights file and a dim the model does not have', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-corrupt-'));
    writeFileSync(join(dir, 'l2_supercat_256.safetensors'), Buffer.from('not a safetensors file'));
    copyFileSync(join(DEFAULT_WORDLLAMA_DIR, WORDLLAMA_TOKENIZER_FILE), join(dir, WORDLLAMA_TOKENIZER_FILE));
    const r = await WordLlamaEmbedder.load({ dir });
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.error.message, /safetensors header/);
    // The dim is refused once the model is read: a valid two-token model of 256 dims is read as
    // the installed one would be, in milliseconds instead of the installed model's 0.6 s of CPU.
    const tinyDir = tinyModelDir();
    try {
      const tiny = await WordLlamaEmbedder.load({ dir: tinyDir });
      assert.ok(tiny.ok && tiny.value.id === 'wordllama-l2-supercat-256', 'the tiny model loads');
      const bad = await WordLlamaEmbedder.load({ dir: tinyDir, dim: 100 as 64 });
      assert.equal(bad.ok, false);
      if (!bad.ok) assert.match(bad.error.message, /dim 100 is not available \(model has 256/);
    } finally {
      rmSync(tinyDir, { recursive: true, force: true });
    }
  });
});

/** A valid WordLlama model directory with two tokens of 256 zero dims and a minimal BPE tokenizer. */
function tinyModelDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wl-tiny-'));
  const bytes = 2 * 256 * 2; // two F16 rows of 256
  const header = Buffer.from(JSON.stringify({ __metadata__: {}, 'embedding.weight': { dtype: 'F16', shape: [2, 256], data_offsets: [0, bytes] } }));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(header.length));
  writeFileSync(join(dir, 'l2_supercat_256.safetensors'), Buffer.concat([len, header, Buffer.alloc(bytes)]));
  const model = { type: 'BPE', unk_token: '<unk>', vocab: { '<unk>': 0, a: 1 }, merges: [] };
  writeFileSync(join(dir, WORDLLAMA_TOKENIZER_FILE), JSON.stringify({ version: '1.0', truncation: null, padding: null, added_tokens: [], normalizer: null, pre_tokenizer: null, post_processor: null, decoder: null, model }));
  return dir;
}

describe('parseSafetensorsMatrix', () => {
  const file = (dtype: string, shape: number[], data: Buffer, key = 'embedding.weight') => {
    let json = JSON.stringify({ __metadata__: {}, [key]: { dtype, shape, data_offsets: [0, data.length] } });
    // Space-padded (allowed by the format) to an odd length: the data then starts unaligned.
    if (json.length % 2 === 0) json += ' ';
    const header = Buffer.from(json);
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(header.length));
    return Buffer.concat([len, header, data]);
  };

  it('decodes float16 exactly, subnormals and signs included, at an odd data offset', () => {
    // 1.0, -2.0, 0.5, 65504 (max), smallest subnormal 2^-24, -0
    const halves = [0x3c00, 0xc000, 0x3800, 0x7bff, 0x0001, 0x8000];
    const data = Buffer.alloc(halves.length * 2);
    halves.forEach((h, i) => data.writeUInt16LE(h, 2 * i));
    const buf = file('F16', [3, 2], data);
    const r = parseSafetensorsMatrix(buf, 'embedding.weight');
    assert.ok(r.ok);
    if (!r.ok) return;
    assert.deepEqual([r.value.vocab, r.value.dim], [3, 2]);
    assert.deepEqual(Array.from(r.value.matrix), [1, -2, 0.5, 65504, 2 ** -24, -0]);
  });

  it('reads float32 and refuses other dtypes, shapes and sizes', () => {
    const f32 = Buffer.alloc(8);
    f32.writeFloatLE(1.5, 0);
    f32.writeFloatLE(-0.25, 4);
    const r = parseSafetensorsMatrix(file('F32', [1, 2], f32), 'embedding.weight');
    assert.ok(r.ok && Array.from(r.value.matrix).join() === '1.5,-0.25');
    const bf16 = parseSafetensorsMatrix(file('BF16', [1, 2], Buffer.alloc(4)), 'embedding.weight');
    assert.ok(!bf16.ok && /dtype BF16/.test(bf16.error));
    const short = parseSafetensorsMatrix(file('F16', [2, 2], Buffer.alloc(4)), 'embedding.weight');
    assert.ok(!short.ok && /does not fit/.test(short.error));
    const oneD = parseSafetensorsMatrix(file('F16', [4], Buffer.alloc(8)), 'embedding.weight');
    assert.ok(!oneD.ok && /expected 2-D/.test(oneD.error));
    const other = parseSafetensorsMatrix(file('F16', [1, 2], Buffer.alloc(4), 'other'), 'embedding.weight');
    assert.ok(!other.ok && /no tensor/.test(other.error));
  });
});
