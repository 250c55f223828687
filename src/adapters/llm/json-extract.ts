import { err, ok, type Result } from '../../result.js';

/**
 * Pull one JSON value out of a model reply. Models wrap JSON in ```json fences or add
 * a sentence before/after it; we accept that, and nothing looser (no guessing at
 * half-written JSON: that is what the repair round trip is for).
 */
export function extractJson(text: string): Result<unknown, string> {
  const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(text);
  const candidate = (fenced ? fenced[1]! : text).trim();
  const direct = tryParse(candidate);
  if (direct.ok) return direct;

  // Prose around a single object/array: take the outermost braces.
  const start = candidate.search(/[{[]/);
  if (start >= 0) {
    const close = candidate[start] === '{' ? '}' : ']';
    const end = candidate.lastIndexOf(close);
    if (end > start) {
      const inner = tryParse(candidate.slice(start, end + 1));
      if (inner.ok) return inner;
    }
  }
  return err(candidate === '' ? 'the reply was empty' : `the reply is not valid JSON (${direct.ok ? '' : direct.error})`);
}

function tryParse(s: string): Result<unknown, string> {
  try {
    return ok(JSON.parse(s) as unknown);
  } catch (e) {
    // Node's message can quote the reply; keep only the position (replies may hold patient text).
    const pos = /position (\d+)/.exec(e instanceof Error ? e.message : '');
    return err(pos ? `syntax error at position ${pos[1]}` : 'syntax error');
  }
}
