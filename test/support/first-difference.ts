/**
 * Where two JSON values first differ, as a path with both sides: a whole /v1/diagnose body is
 * ~30 KB, and mocha cuts its diff at 8 KB, so a failing equality would not say what differed.
 */
export function firstDifference(actual: unknown, expected: unknown, path = '$'): string | null {
  if (Object.is(actual, expected)) return null;
  const bothObjects = typeof actual === 'object' && typeof expected === 'object' && actual !== null && expected !== null;
  if (!bothObjects || Array.isArray(actual) !== Array.isArray(expected)) return `${path}: ${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`;
  const a = actual as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  for (const key of new Set([...Object.keys(a), ...Object.keys(e)])) {
    const at = Array.isArray(a) ? `${path}[${key}]` : `${path}.${key}`;
    if (!(key in a) || !(key in e)) return `${at}: ${key in a ? 'only in actual' : 'only in expected'}`;
    const d = firstDifference(a[key], e[key], at);
    if (d) return d;
  }
  return null;
}
