import { err, ok, type Result } from '../result.js';

/** A value of the Python literal subset DDXPlus writes with `str(list)`: lists, strings, numbers. */
export type PyValue = string | number | PyValue[];

/**
 * Parses the Python `repr` of a list (e.g. "['E_91', 'E_54_@_V_179']" or
 * "[['Pneumonia', 0.08], ...]"). Hand-written because JSON.parse rejects single quotes and
 * swapping quotes breaks names such as "Crohn's disease", which Python writes in double quotes.
 */
export function parsePythonList(text: string): Result<PyValue[], string> {
  const p = new Parser(text);
  try {
    p.skipWs();
    const v = p.value();
    p.skipWs();
    if (!p.atEnd()) return err(`unexpected '${p.peek()}' at offset ${p.pos}`);
    if (!Array.isArray(v)) return err('not a list');
    return ok(v);
  } catch (e) {
    return err((e as Error).message);
  }
}

class Parser {
  pos = 0;
  constructor(private readonly s: string) {}
  atEnd(): boolean {
    return this.pos >= this.s.length;
  }
  peek(): string {
    return this.s[this.pos] ?? '';
  }
  skipWs(): void {
    // charCode test, not a regex: this runs for every character of 1.3M differential lists
    let c = this.s.charCodeAt(this.pos);
    while (c === 32 || c === 9 || c === 10 || c === 13) c = this.s.charCodeAt(++this.pos);
  }
  value(): PyValue {
    const c = this.peek();
    if (c === '[') return this.list();
    if (c === "'" || c === '"') return this.str(c);
    if (/[-+0-9.]/.test(c)) return this.num();
    throw new Error(this.atEnd() ? 'unexpected end of input' : `unexpected '${c}' at offset ${this.pos}`);
  }
  list(): PyValue[] {
    this.pos++; // [
    const out: PyValue[] = [];
    this.skipWs();
    if (this.peek() === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWs();
      out.push(this.value());
      this.skipWs();
      const c = this.peek();
      this.pos++;
      if (c === ']') return out;
      if (c !== ',') throw new Error(this.pos > this.s.length ? 'unterminated list' : `expected ',' or ']' at offset ${this.pos - 1}`);
      this.skipWs();
      if (this.peek() === ']') {
        this.pos++; // Python allows a trailing comma
        return out;
      }
    }
  }
  str(quote: string): string {
    this.pos++;
    let out = '';
    while (!this.atEnd()) {
      const c = this.s[this.pos++] as string;
      if (c === quote) return out;
      if (c === '\\') {
        const n = this.s[this.pos++] ?? '';
        out += n === 'n' ? '\n' : n === 't' ? '\t' : n;
      } else out += c;
    }
    throw new Error('unterminated string');
  }
  num(): number {
    const m = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(this.s.slice(this.pos, this.pos + 40));
    if (!m) throw new Error(`bad number at offset ${this.pos}`);
    this.pos += m[0].length;
    return Number(m[0]);
  }
}
