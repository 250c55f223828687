import { err, ok, type Result } from '../../result.js';

/**
 * The JSON Schema a prompt's zod schema produces (z.toJSONSchema), narrowed to what a
 * generation grammar can enforce (node-llama-cpp's GBNF JSON-schema subset), so a local model
 * can only emit text that parses and has the right shape. Content is still validated with the
 * zod schema afterwards (structured.ts): the grammar shapes, zod judges.
 *
 * Where the grammar cannot say what the schema says, it says something stricter that still
 * validates, never something looser that could not:
 * - every property is written (optional ones too): the grammar has no "maybe this key";
 * - a number bounded to [0, 1] (confidence, prevalence) is one of 0, 0.1, ..., 1;
 * - strings and arrays get length caps: an unbounded string lets a small model ramble until
 *   the token limit cuts the JSON off, the one failure the grammar exists to prevent. The
 *   defaults keep the largest diagnose answer (3 diagnoses, 3 questions, 3 treatments, 3
 *   medications, a narrative) inside the default 768 reply tokens.
 */
export interface GrammarCaps {
  /** Longest string the grammar lets the model write (the schema's own maxLength when smaller). */
  stringChars: number;
  /** Most items of an array (the schema's own maxItems when smaller). */
  arrayItems: number;
}

export const DEFAULT_GRAMMAR_CAPS: GrammarCaps = { stringChars: 120, arrayItems: 3 };

/** A node of node-llama-cpp's GbnfJsonSchema; kept structural so this file needs no import of it. */
export type GrammarSchema = { [key: string]: unknown };

type Json = Record<string, unknown>;

const UNIT_STEPS = Array.from({ length: 11 }, (_, i) => i / 10);

/** The grammar's schema, or why the JSON Schema cannot be turned into one (then generation is unconstrained). */
export function toGrammarSchema(schema: unknown, caps: GrammarCaps = DEFAULT_GRAMMAR_CAPS): Result<GrammarSchema, string> {
  try {
    return ok(convert(schema as Json, caps, 0));
  } catch (e) {
    return err(e instanceof Error ? e.message : String(e));
  }
}

function convert(s: Json, caps: GrammarCaps, depth: number): GrammarSchema {
  if (depth > 12) throw new Error('schema nested deeper than 12 levels');
  if (s === null || typeof s !== 'object') throw new Error('schema node is not an object');
  if ('const' in s) return { const: s.const };
  if (Array.isArray(s.enum)) return { enum: s.enum };
  const alternatives = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (Array.isArray(alternatives)) return { oneOf: alternatives.map((a) => convert(a, caps, depth + 1)) };
  switch (s.type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Json>;
      const properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, convert(v, caps, depth + 1)]));
      return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
    }
    case 'array': {
      const max = Math.min(num(s.maxItems) ?? Infinity, caps.arrayItems);
      const min = Math.min(num(s.minItems) ?? 0, max);
      const items = s.items && typeof s.items === 'object' ? convert(s.items as Json, caps, depth + 1) : { type: 'string', maxLength: caps.stringChars };
      return { type: 'array', items, minItems: min, maxItems: max };
    }
    case 'string': {
      const max = Math.min(num(s.maxLength) ?? Infinity, caps.stringChars);
      return { type: 'string', minLength: Math.min(num(s.minLength) ?? 0, max), maxLength: max };
    }
    case 'number':
    case 'integer': {
      const lo = num(s.minimum);
      const hi = num(s.maximum);
      if (s.type === 'number' && lo !== null && hi !== null && lo >= 0 && hi <= 1) return { enum: UNIT_STEPS.filter((v) => v >= lo && v <= hi) };
      return { type: s.type };
    }
    case 'boolean':
    case 'null':
      return { type: s.type };
    default:
      throw new Error(`schema type ${JSON.stringify(s.type)} has no grammar`);
  }
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
