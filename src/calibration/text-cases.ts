/**
 * Labelled free-text cases for calibration (`dxgraph calibrate --text-cases`): JSON Lines, one
 * {"text": …, "condition": …} per line (the vignette sets' format, datasets/vignettes; other
 * fields are ignored), `condition` naming the diagnosis as the build's source does. Age and
 * sex are read from the text by the query side, as for any request; the annotations are not sent.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { InputError } from '../errors.js';

export interface TextCase {
  text: string;
  condition: string;
  age: null;
  sex: null;
}

const Line = z.object({ text: z.string().trim().min(1), condition: z.string().trim().min(1) });

export function parseTextCases(jsonl: string, where: string): TextCase[] {
  const out: TextCase[] = [];
  jsonl.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (e) {
      throw new InputError(`${where}:${i + 1}: not JSON`, { field: 'text-cases', cause: e });
    }
    const parsed = Line.safeParse(raw);
    if (!parsed.success) throw new InputError(`${where}:${i + 1}: ${parsed.error.issues[0]?.path.join('.') || 'line'}: ${parsed.error.issues[0]?.message}`, { field: 'text-cases' });
    out.push({ text: parsed.data.text, condition: parsed.data.condition, age: null, sex: null });
  });
  return out;
}

export async function readTextCases(path: string): Promise<TextCase[]> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (e) {
    throw new InputError(`--text-cases: cannot read ${path}`, { field: 'text-cases', cause: e });
  }
  return parseTextCases(raw, path);
}
