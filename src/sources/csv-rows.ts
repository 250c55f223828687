import type { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';

/** A data row of a CSV file, or a row the CSV parser could not read; numbered in file order. */
export type CsvItem =
  | { kind: 'row'; row: Record<string, string>; rowNumber: number; line: number }
  | { kind: 'bad'; rowNumber: number; line: number; reason: string };

/**
 * Streams a CSV file with a header line as numbered rows. Rows the parser rejects (wrong
 * column count, unclosed quote) come out as 'bad' items in their place, so row numbers stay
 * stable and nothing is dropped silently. Memory stays bounded by the stream's buffers.
 */
export async function* csvRows(input: Readable): AsyncGenerator<CsvItem> {
  let rowNumber = 0;
  // on_skip and on_record run synchronously in file order: a skip is attached to the next row.
  let pending: CsvItem[] = [];
  const parser = input.pipe(
    parse({
      columns: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      bom: true,
      on_skip: (e: CsvError | undefined) => {
        rowNumber++;
        const line = Number((e as { lines?: number } | undefined)?.lines ?? 0);
        pending.push({ kind: 'bad', rowNumber, line, reason: `malformed CSV row: ${e?.code ?? 'unknown error'}` });
        return undefined;
      },
      on_record: (record: Record<string, string>, ctx) => {
        rowNumber++;
        const items: CsvItem[] = [...pending, { kind: 'row', row: record, rowNumber, line: ctx.lines }];
        pending = [];
        return items;
      },
    }),
  );
  input.on('error', (e) => parser.destroy(e));
  for await (const items of parser as AsyncIterable<CsvItem[]>) yield* items;
  yield* pending;
}
