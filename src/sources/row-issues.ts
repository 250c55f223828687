import { SourceRowError } from '../errors.js';
import type { ImportSummary, SkippedRow } from './types.js';

/** Why a row could not become a record: a short category (counted) and a reason (reported). */
export interface RowProblem {
  category: string;
  reason: string;
}

const MAX_EXAMPLES = 20;

/**
 * Counts rows read / emitted / skipped for one source so the summary always adds up
 * (rowsRead = recordsEmitted + skipped). In strict mode the first problem throws instead.
 */
export class RowTally {
  private rowsRead = 0;
  private emitted = 0;
  private readonly byReason: Record<string, number> = {};
  private readonly examples: SkippedRow[] = [];

  constructor(private readonly strict: boolean) {}

  read(): void {
    this.rowsRead++;
  }

  emit(): void {
    this.emitted++;
  }

  /** Records a malformed row; throws SourceRowError in strict mode. */
  skip(location: string, problem: RowProblem): void {
    if (this.strict) throw new SourceRowError(location, problem.reason);
    this.byReason[problem.category] = (this.byReason[problem.category] ?? 0) + 1;
    if (this.examples.length < MAX_EXAMPLES) this.examples.push({ location, reason: problem.reason });
  }

  summary(): ImportSummary {
    const skipped = Object.values(this.byReason).reduce((a, b) => a + b, 0);
    return {
      rowsRead: this.rowsRead,
      recordsEmitted: this.emitted,
      skipped,
      skippedByReason: { ...this.byReason },
      examples: [...this.examples],
    };
  }
}
