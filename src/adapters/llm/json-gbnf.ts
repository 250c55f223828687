import type { GrammarSchema } from './grammar-schema.js';

/**
 * A grammar schema (grammar-schema.ts) as a llama.cpp GBNF grammar for COMPACT JSON: no space,
 * newline or indentation anywhere, keys in the schema's order. node-llama-cpp's own JSON-schema
 * grammar lets the model indent, and a small model does, a token per line break and per run of
 * spaces: a quarter to a third of SmolLM2-135M's diagnose reply was layout (docs/testing.md,
 * round 7). Reply tokens are the slow ones on a CPU (about 25/s against 85/s for the prompt).
 * GBNF reference: llama.cpp grammars/README.md.
 */

/** The text after the JSON that ends a generation (a stop trigger; trimmed from the reply). */
export const GRAMMAR_END = '\n\n\n\n';

/** The GBNF of `schema`'s values; a schema node it does not know throws (grammar-schema.ts makes only known ones). */
export function compactJsonGbnf(schema: GrammarSchema): string {
  const named = new Named();
  const root = value(schema, 0, named);
  return [`root ::= ${root} ${literal(GRAMMAR_END)}`, ...named.rules(), ...RULES].join('\n');
}

/**
 * Strings and array items as named rules, not inline: llama.cpp's parser refuses a repetition
 * whose inline body times its count passes 2,000 elements ("exceeds sane defaults"), which the
 * build's hierarchy schema did (categories of subcategories of diseases, each string char{0,120}).
 * The same language: a rule reference stands for its body.
 */
class Named {
  private readonly byBody = new Map<string, string>();
  ref(prefix: string, body: string): string {
    if (/^[a-z][a-z0-9]*$/.test(body)) return body; // already a rule's name
    let name = this.byBody.get(body);
    if (!name) this.byBody.set(body, (name = `${prefix}${this.byBody.size}`));
    return name;
  }
  rules(): string[] {
    return [...this.byBody].map(([body, name]) => `${name} ::= ${body}`);
  }
}

const RULES = [
  // JSON's string characters: anything but a quote, a backslash or a control character, or an escape.
  'char ::= [^"\\\\\\x7F\\x00-\\x1F] | "\\\\" ["\\\\/bfnrt] | "\\\\u" [0-9a-fA-F]{4}',
  'integer ::= "-"? ("0" | [1-9] [0-9]{0,15})',
  'number ::= integer ("." [0-9]{1,16})? ([eE] [-+]? [0-9]{1,16})?',
  'boolean ::= "true" | "false"',
];

function value(s: GrammarSchema, depth: number, named: Named): string {
  if (depth > 24) throw new Error('grammar schema nested deeper than 24 levels');
  if ('const' in s) return literal(JSON.stringify(s.const));
  if (Array.isArray(s.enum)) return group(s.enum.map((v) => literal(JSON.stringify(v))));
  if (Array.isArray(s.oneOf)) return group(s.oneOf.map((a) => value(a as GrammarSchema, depth + 1, named)));
  switch (s.type) {
    case 'object': {
      const props = Object.entries((s.properties ?? {}) as Record<string, GrammarSchema>);
      const members = props.map(([k, v], i) => `${literal(`${i === 0 ? '' : ','}${JSON.stringify(k)}:`)} ${value(v, depth + 1, named)}`);
      return members.length === 0 ? literal('{}') : `"{" ${members.join(' ')} "}"`;
    }
    case 'array': {
      const max = count(s.maxItems, Infinity);
      const min = Math.min(count(s.minItems, 0), max);
      if (max === 0) return literal('[]');
      const item = named.ref('item', value((s.items ?? { type: 'string' }) as GrammarSchema, depth + 1, named));
      const more = max === 1 ? '' : ` ("," ${item})${repeat(Math.max(0, min - 1), max - 1)}`;
      return min === 0 ? `"[" (${item}${more})? "]"` : `"[" ${item}${more} "]"`;
    }
    case 'string':
      return named.ref('str', `"\\"" char${repeat(count(s.minLength, 0), count(s.maxLength, Infinity))} "\\""`);
    case 'number':
      return 'number';
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'boolean';
    case 'null':
      return literal('null');
    default:
      throw new Error(`grammar schema type ${JSON.stringify(s.type)} has no GBNF`);
  }
}

/** A GBNF repetition suffix: {m,n}, {m,} or nothing for exactly one. */
function repeat(min: number, max: number): string {
  if (min === 1 && max === 1) return '';
  return Number.isFinite(max) ? `{${min},${max}}` : `{${min},}`;
}

/** A GBNF string literal of `text` (a JSON string literal is one: same escapes, \uXXXX included). */
const literal = (text: string) => JSON.stringify(text);
const group = (alternatives: string[]) => `(${alternatives.join(' | ')})`;
const count = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : fallback);
