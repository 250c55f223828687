import { DxError } from '../src/errors.js';

/** The assembled KG breaks an invariant (tiers, orphans, dangling ids): a bug or a bad import, never loaded. */
export class KgConsistencyError extends DxError {
  readonly problems: string[];
  constructor(problems: string[]) {
    super('KG_CONSISTENCY', `the built KG is inconsistent (${problems.length} problem${problems.length === 1 ? '' : 's'}): ${problems.slice(0, 5).join('; ')}`);
    this.problems = problems;
  }
}
