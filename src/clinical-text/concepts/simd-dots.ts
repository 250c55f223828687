/**
 * Dot products of one vector with every row of a float32 matrix, four lanes at a time
 * (WebAssembly 128-bit SIMD, in Node since v16.4). Used only to choose which rows to score
 * exactly: the sums are float32 in another order than a plain scan's float64 ones, so each differs
 * from the exact dot product by at most SIMD_ROUNDING · dim · |vector| · |row| (a float32 sum of
 * `dim` products; Higham's γ_n bound), and callers allow for that (embed-forms.ts).
 *
 * The module, assembled here byte by byte (no toolchain at build or run time), has two functions;
 * `dots4` is `dots` for four vectors at once, each row loaded once for the four (fourVectors):
 *
 *   (func (export "dots") (param $q i32) (param $m i32) (param $n i32) (param $dim i32) (param $out i32)
 *     (local $j i32) (local $qp i32) (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
 *     (block $done (loop $rows
 *       (br_if $done (i32.eqz (local.get $n)))
 *       a0..a3 := 0; $qp := $q; $j := $dim
 *       (loop $cols            ;; 16 floats per turn: four independent f32x4 sums
 *         a_k := f32x4.add(a_k, f32x4.mul(v128.load offset=16k ($m), v128.load offset=16k ($qp)))
 *         $m += 64; $qp += 64; (br_if $cols (local.tee $j (i32.sub $j 16))))
 *       f32.store ($out) (sum of the lanes of a0+a1+a2+a3)
 *       $out += 4; $n -= 1; (br $rows))))
 *   (memory (export "mem") 1)
 */
export const SIMD_ROUNDING = 2 ** -24;
/** Rows must hold a whole number of 16-float turns. */
export const SIMD_WIDTH = 16;

export interface SimdDots {
  /** One dot product per row, into a view of the module's memory (valid until the next call). */
  dots(vector: Float32Array): Float32Array;
  /** Four vectors at once, each row read once: element 4·row + k is vector k's (a view, valid until the next call). */
  dots4(vectors: readonly [Float32Array, Float32Array, Float32Array, Float32Array]): Float32Array;
}

const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
};
/** Signed LEB128 (i32.const's immediate: 64 is 0xc0 0x00, as 0x40 alone reads -64). */
const sleb = (n: number): number[] => {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
};
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
const name = (s: string) => [...uleb(s.length), ...[...s].map((c) => c.charCodeAt(0))];

// Opcodes (WebAssembly core 2.0).
const GET = 0x20, SET = 0x21, TEE = 0x22, I32_CONST = 0x41, I32_ADD = 0x6a, I32_SUB = 0x6b, I32_EQZ = 0x45, F32_ADD = 0x92, F32_STORE = 0x38;
const BLOCK = 0x02, LOOP = 0x03, BR = 0x0c, BR_IF = 0x0d, END = 0x0b, VOID = 0x40, I32 = 0x7f, V128 = 0x7b;
const simd = (op: number, ...imm: number[]) => [0xfd, ...uleb(op), ...imm];
const LOAD = (offset: number) => simd(0x00, 0, ...uleb(offset)); // v128.load align=1
const ZERO = simd(0x0c, ...new Array<number>(16).fill(0)); // v128.const 0
const ADD4 = simd(0xe4), MUL4 = simd(0xe6); // f32x4.add, f32x4.mul
const LANE = (k: number) => simd(0x1f, k); // f32x4.extract_lane
const [Q, M, N, DIM, OUT, J, QP] = [0, 1, 2, 3, 4, 5, 6];
const step = (local: number, delta: number, op: number) => [GET, local, I32_CONST, ...sleb(delta), op, SET, local];
/** The sum of a v128 local's four lanes, left on the stack. */
const lanes = (a: number) => [GET, a, ...LANE(0), GET, a, ...LANE(1), F32_ADD, GET, a, ...LANE(2), F32_ADD, GET, a, ...LANE(3), F32_ADD];

/** `dots`: one vector, four independent sums per row (16 floats a turn). */
function oneVector(): number[] {
  const A0 = 7;
  const acc = (k: number) => [GET, A0 + k, GET, M, ...LOAD(16 * k), GET, QP, ...LOAD(16 * k), ...MUL4, ...ADD4, SET, A0 + k];
  return [
    2, 2, I32, 4, V128, // locals: $j $qp, $a0..$a3
    BLOCK, VOID, LOOP, VOID,
    GET, N, I32_EQZ, BR_IF, 1,
    ...[0, 1, 2, 3].flatMap((k) => [...ZERO, SET, A0 + k]),
    GET, Q, SET, QP, GET, DIM, SET, J,
    LOOP, VOID,
    ...[0, 1, 2, 3].flatMap(acc),
    ...step(M, 64, I32_ADD), ...step(QP, 64, I32_ADD),
    GET, J, I32_CONST, ...sleb(16), I32_SUB, TEE, J, BR_IF, 0,
    END,
    GET, A0, GET, A0 + 1, ...ADD4, GET, A0 + 2, GET, A0 + 3, ...ADD4, ...ADD4, SET, A0,
    GET, OUT, ...lanes(A0), F32_STORE, 2, 0,
    ...step(OUT, 4, I32_ADD), ...step(N, 1, I32_SUB),
    BR, 0,
    END, END, END,
  ];
}

/**
 * `dots4`: four vectors (`dim` floats apart) against each row read once (the rows are megabytes,
 * the vectors a few kilobytes): out[4i + k] is vector k's sum with row i. The vectors' spacing is
 * a load offset, so a module is assembled per `dim`.
 */
function fourVectors(dim: number): number[] {
  const [X, A0] = [7, 8];
  const acc = (k: number) => [GET, A0 + k, GET, X, GET, QP, ...LOAD(4 * dim * k), ...MUL4, ...ADD4, SET, A0 + k];
  return [
    2, 2, I32, 5, V128, // locals: $j $qp, $x $a0..$a3
    BLOCK, VOID, LOOP, VOID,
    GET, N, I32_EQZ, BR_IF, 1,
    ...[0, 1, 2, 3].flatMap((k) => [...ZERO, SET, A0 + k]),
    GET, Q, SET, QP, GET, DIM, SET, J,
    LOOP, VOID,
    GET, M, ...LOAD(0), SET, X,
    ...[0, 1, 2, 3].flatMap(acc),
    ...step(M, 16, I32_ADD), ...step(QP, 16, I32_ADD),
    GET, J, I32_CONST, ...sleb(4), I32_SUB, TEE, J, BR_IF, 0,
    END,
    ...[0, 1, 2, 3].flatMap((k) => [GET, OUT, ...lanes(A0 + k), F32_STORE, 2, ...uleb(4 * k)]),
    ...step(OUT, 16, I32_ADD), ...step(N, 1, I32_SUB),
    BR, 0,
    END, END, END,
  ];
}

function moduleBytes(dim: number): Uint8Array<ArrayBuffer> {
  const bodies = [oneVector(), fourVectors(dim)];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]),
    ...section(3, [2, 0, 0]),
    ...section(5, [1, 0, 1]),
    ...section(7, [3, ...name('mem'), 2, 0, ...name('dots'), 0, 0, ...name('dots4'), 0, 1]),
    ...section(10, [2, ...bodies.flatMap((b) => [...uleb(b.length), ...b])]),
  ]);
}

const compiled = new Map<number, WebAssembly.Module | null>();
/** The module for rows of `dim` floats, or null where this runtime has no WebAssembly SIMD (callers scan in JavaScript). */
function simdModule(dim: number): WebAssembly.Module | null {
  let mod = compiled.get(dim);
  if (mod === undefined) {
    const bytes = moduleBytes(dim);
    mod = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
    compiled.set(dim, mod);
  }
  return mod;
}

/**
 * The rows (`matrix`, row-major, `dim` floats each) copied into a module instance of their own;
 * null when SIMD is unavailable or `dim` is no multiple of SIMD_WIDTH.
 */
export function simdDots(matrix: Float32Array, dim: number): SimdDots | null {
  const mod = dim === 0 || dim % SIMD_WIDTH !== 0 ? null : simdModule(dim);
  if (!mod) return null;
  const n = matrix.length / dim;
  const { exports } = new WebAssembly.Instance(mod, {});
  const memory = exports.mem as WebAssembly.Memory;
  type Run = (q: number, m: number, n: number, dim: number, out: number) => void;
  const [run, run4] = [exports.dots as Run, exports.dots4 as Run];
  const qAt = matrix.byteLength;
  const outAt = qAt + 4 * dim * 4;
  const bytes = outAt + 4 * n * 4;
  memory.grow(Math.max(0, Math.ceil(bytes / 65536) - memory.buffer.byteLength / 65536));
  new Float32Array(memory.buffer, 0, matrix.length).set(matrix);
  const q = new Float32Array(memory.buffer, qAt, 4 * dim);
  const out = new Float32Array(memory.buffer, outAt, n);
  const out4 = new Float32Array(memory.buffer, outAt, 4 * n);
  return {
    dots(vector) {
      q.set(vector);
      run(qAt, 0, n, dim, outAt);
      return out;
    },
    dots4(vectors) {
      vectors.forEach((v, k) => q.set(v, k * dim));
      run4(qAt, 0, n, dim, outAt);
      return out4;
    },
  };
}
