import { SourceRowError } from '../../errors.js';
import type { ImportSummary, SkippedRow } from '../types.js';
import type { RowProblem } from '../row-issues.js';

const MAX_EXAMPLES = 20;

/**
 * Counts the facts (a measurement, an observation) that gave no finding although their visit
 * became a record, by reason, for ImportSummary.factsSkipped. Strict mode stops at the first.
 */
export class FactTally {
  private count = 0;
  private readonly byReason: Record<string, number> = {};
  private readonly examples: SkippedRow[] = [];

  constructor(private readonly strict: boolean) {}

  skip(location: string, problem: RowProblem): void {
    this.skipMany(1, location, problem);
  }

  /** Adds n facts of one reason at once (e.g. a count query's answer). */
  skipMany(n: number, location: string, problem: RowProblem): void {
    if (n <= 0) return;
    if (this.strict) throw new SourceRowError(location, problem.reason);
    this.count += n;
    this.byReason[problem.category] = (this.byReason[problem.category] ?? 0) + n;
    if (this.examples.length < MAX_EXAMPLES) this.examples.push({ location, reason: problem.reason });
  }

  summary(): NonNullable<ImportSummary['factsSkipped']> {
    return { count: this.count, byReason: { ...this.byReason }, examples: [...this.examples] };
  }
}
