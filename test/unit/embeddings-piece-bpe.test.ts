import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { MAX_PIECE_SYMBOLS, PieceBpe, type BpeModelJson } from '../../src/adapters/embeddings/piece-bpe.js';
import { safetensorsRows } from '../../src/adapters/embeddings/token-rows.js';
import { DEFAULT_WORDLLAMA_DIR, parseSafetensorsMatrix, WORDLLAMA_TOKENIZER_FILE } from '../../src/adapters/embeddings/wordllama-model.js';

/**
 * PieceBpe (the WordLlama tokenizer's per-piece BPE without building tokenizers.js) against
 * tokenizers.js itself, and TokenRows (rows converted on first use) against the whole conversion.
 */
const tokenizerJson = (model: BpeModelJson) => ({ version: '1.0', truncation: null, padding: null, added_tokens: [], normalizer: null, pre_tokenizer: null, post_processor: null, decoder: null, model });
const referenceIds = (model: BpeModelJson, piece: string) => {
  const m = new Tokenizer(tokenizerJson(model), {}).model!;
  return (m([piece]) as string[]).map((t) => m.tokens_to_ids.get(t) ?? 0);
};

describe('PieceBpe', () => {
  // Ranks chosen so that order matters: "b c" (rank 0) before "a b" (rank 1); "a a" ties resolve leftmost.
  const toy: BpeModelJson = {
    type: 'BPE', unk_token: '<unk>', byte_fallback: true, fuse_unk: true,
    vocab: { '<unk>': 0, a: 1, b: 2, c: 3, bc: 4, ab: 5, aa: 6, abc: 7, aaa: 8, '<0xC3>': 9, '<0xA9>': 10 },
    merges: ['b c', 'a b', 'a a', 'a bc', 'aa a'],
  };

  it('merges lowest rank first and the leftmost of equal ranks, as tokenizers.js does', () => {
    const bpe = PieceBpe.from(toy)!;
    for (const piece of ['abc', 'aaa', 'aaaa', 'aaaaa', 'ababc', 'cab', 'abcabc', 'a', 'bb']) {
      assert.deepEqual(bpe.ids(piece), referenceIds(toy, piece), piece);
    }
    assert.deepEqual(bpe.ids('abc'), [7], '"b c" merges before "a b": a + bc = abc');
    assert.deepEqual(bpe.ids('aaaa'), [6, 6], 'leftmost "a a" first, then the second pair');
  });

  it('falls back to bytes, and fuses a run of unknowns into one', () => {
    const bpe = PieceBpe.from(toy)!;
    assert.deepEqual(bpe.ids('é'), [9, 10]);
    assert.deepEqual(bpe.ids('axyb'), referenceIds(toy, 'axyb'));
    assert.deepEqual(bpe.ids('axyb'), [1, 0, 2], 'x and y have no byte tokens: one <unk>');
    const noFallback = { ...toy, byte_fallback: false, fuse_unk: false };
    assert.deepEqual(PieceBpe.from(noFallback)!.ids('aéé'), referenceIds(noFallback, 'aéé'));
    assert.deepEqual(PieceBpe.from(noFallback)!.ids('aéé'), [1, 0, 0]);
  });

  it('declines models it does not implement, and pieces too long for its loop', () => {
    assert.equal(PieceBpe.from({ ...toy, end_of_word_suffix: '</w>' }), null);
    assert.equal(PieceBpe.from({ ...toy, continuing_subword_suffix: '##' }), null);
    assert.equal(PieceBpe.from({ ...toy, ignore_merges: true }), null);
    assert.equal(PieceBpe.from({ ...toy, merges: [['a', 'b']] }), null);
    assert.equal(PieceBpe.from({ ...toy, merges: ['a b c'] }), null);
    assert.equal(PieceBpe.from({ ...toy, type: 'WordPiece' }), null);
    assert.equal(PieceBpe.from(toy)!.ids('a'.repeat(MAX_PIECE_SYMBOLS + 1)), null);
    assert.notEqual(PieceBpe.from(toy)!.ids('a'.repeat(MAX_PIECE_SYMBOLS)), null);
  });

  it('gives the installed Llama-2 tokenizer model\'s ids on words, numbers, Unicode and bytes', () => {
    const json = JSON.parse(readFileSync(join(DEFAULT_WORDLLAMA_DIR, WORDLLAMA_TOKENIZER_FILE), 'utf8')) as { model: BpeModelJson };
    const bpe = PieceBpe.from(json.model);
    assert.ok(bpe, 'the installed tokenizer is a plain BPE');
    const m = new Tokenizer(json, {}).model!;
    const words = 'Sharp retrosternal chest pain radiating to the left arm, worse on inspiration; denies hemoptysis. 38.5°C, SpO2 94%, BP 132/85 mmHg. Pt’s wife says he’s “pretty wiped out” — naïve façade, 🤒 fever 中文 \t tabs\r\n'.split(' ');
    for (const w of [...words, ...words.map((x) => `\u2581${x}`), '\u2581\u2581\u2581indented', 'supercalifragilisticexpialidocious']) {
      assert.deepEqual(bpe!.ids(w), (m([w]) as string[]).map((t) => m.tokens_to_ids.get(t) ?? 0), JSON.stringify(w));
    }
  });
});

describe('TokenRows', () => {
  const file = (dtype: 'F16' | 'F32', rows: number, dim: number, data: Buffer) => {
    let json = JSON.stringify({ 'embedding.weight': { dtype, shape: [rows, dim], data_offsets: [0, data.length] } });
    if (json.length % 2 === 0) json += ' '; // unaligned data
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(json.length));
    return Buffer.concat([len, Buffer.from(json), data]);
  };

  it('converts a row on its first read to what the whole conversion gives, in any order', () => {
    const f16 = Buffer.alloc(5 * 3 * 2);
    for (let i = 0; i < 15; i++) f16.writeUInt16LE((0x3c00 + 97 * i) & 0xffff, 2 * i);
    const f32 = Buffer.alloc(5 * 3 * 4);
    for (let i = 0; i < 15; i++) f32.writeFloatLE(i / 7 - 1, 4 * i);
    for (const [dtype, data] of [['F16', f16], ['F32', f32]] as const) {
      const whole = parseSafetensorsMatrix(file(dtype, 5, 3, data), 'embedding.weight');
      const lazy = safetensorsRows(file(dtype, 5, 3, data), 'embedding.weight');
      assert.ok(whole.ok && lazy.ok);
      if (!whole.ok || !lazy.ok) return;
      assert.ok(lazy.value.values.every((x) => x === 0), 'nothing converted before a read');
      for (const id of [3, 0, 3, 4]) {
        const at = lazy.value.offset(id);
        assert.equal(at, id * 3);
        assert.deepEqual(Array.from(lazy.value.values.subarray(at, at + 3)), Array.from(whole.value.matrix.subarray(at, at + 3)), `${dtype} row ${id}`);
      }
      assert.deepEqual(Array.from(lazy.value.values.subarray(3, 6)), [0, 0, 0], 'row 1 not read, not converted');
      assert.deepEqual(Array.from(lazy.value.all()), Array.from(whole.value.matrix));
    }
  });
});
