import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { csvRows } from '../csv-rows.js';
import type { RawRowItem } from './mapped-source.js';

/** Rows of a CSV file with a header line; locations are `<name>:<line>`. */
export async function* csvFileRows(path: string, name: string): AsyncGenerator<RawRowItem> {
  const stream = createReadStream(path);
  try {
    for await (const item of csvRows(stream)) {
      const location = `${name}:${item.line}`;
      yield item.kind === 'row'
        ? { kind: 'row', row: item.row, rowNumber: item.rowNumber, location }
        : { kind: 'bad', rowNumber: item.rowNumber, location, problem: { category: 'malformed-csv', reason: item.reason } };
    }
  } finally {
    stream.destroy();
  }
}

/** Rows of a JSON Lines file: one object per non-blank line; a bad line is reported, not fatal. */
export async function* jsonlFileRows(path: string, name: string): AsyncGenerator<RawRowItem> {
  const stream = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let lineNo = 0;
  let rowNumber = 0;
  try {
    for await (const line of lines) {
      lineNo++;
      if (line.trim() === '') continue;
      rowNumber++;
      const location = `${name}:${lineNo}`;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (e) {
        yield { kind: 'bad', rowNumber, location, problem: { category: 'bad-json', reason: `bad JSON line: ${(e as Error).message}` } };
        continue;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        yield { kind: 'bad', rowNumber, location, problem: { category: 'bad-json', reason: 'JSON line is not an object' } };
        continue;
      }
      yield { kind: 'row', row: value as Record<string, unknown>, rowNumber, location };
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}
