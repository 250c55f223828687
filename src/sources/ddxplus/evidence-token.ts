import { err, ok, type Result } from '../../result.js';
import { parsePythonList } from '../python-literal.js';

/** One DDXPlus evidence token: `E_91`, `E_54_@_V_179` (coded value) or `E_56_@_7` (number). */
export type EvidenceToken =
  | { code: string; value: null }
  | { code: string; value: { kind: 'code'; code: string } }
  | { code: string; value: { kind: 'number'; value: number; raw: string } };

/** A DDXPlus evidence code (a question of DDXPlus's questionnaire). */
export const isDdxplusEvidenceCode = (code: string): boolean => /^E_\d+$/.test(code);

const TOKEN = /^(E_\d+)(?:_@_(?:(V_\d+)|(-?\d+(?:\.\d+)?)))?$/;

export function parseEvidenceToken(token: string): Result<EvidenceToken, string> {
  const m = TOKEN.exec(token.trim());
  if (!m) return err(`unparseable evidence token '${token}'`);
  const code = m[1] as string;
  if (m[2] !== undefined) return ok({ code, value: { kind: 'code', code: m[2] } });
  if (m[3] !== undefined) return ok({ code, value: { kind: 'number', value: Number(m[3]), raw: m[3] } });
  return ok({ code, value: null });
}

/** Parses the EVIDENCES column (a Python list of token strings). */
export function parseEvidenceList(text: string): Result<EvidenceToken[], string> {
  const list = parsePythonList(text);
  if (!list.ok) return err(`unparseable evidence list: ${list.error}`);
  const out: EvidenceToken[] = [];
  for (const item of list.value) {
    if (typeof item !== 'string') return err('unparseable evidence list: an item is not a string');
    const t = parseEvidenceToken(item);
    if (!t.ok) return t;
    out.push(t.value);
  }
  return ok(out);
}
