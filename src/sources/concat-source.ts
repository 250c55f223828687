import type { DeclaredEvidence, DiseaseKnowledge, ImportSummary, RecordSource } from './types.js';

/**
 * Several sources as one (issue 24: `dxgraph build --source A --source B`), read one after the
 * other. Record ids are source-qualified, so two sources never collide; features of one concept
 * (a DDXPlus code and a note read into it) meet by their feature key in the scan. Summaries add
 * up; a source's declared evidence answers for the diagnoses it knows.
 */
export class ConcatSource implements RecordSource {
  readonly description: string;
  constructor(private readonly parts: readonly RecordSource[]) {
    this.description = parts.map((p) => p.description).join(' + ');
  }

  async *records() {
    for (const p of this.parts) yield* p.records();
  }

  summary(): ImportSummary {
    const out: ImportSummary = { rowsRead: 0, recordsEmitted: 0, skipped: 0, skippedByReason: {}, examples: [] };
    for (const s of this.parts.map((p) => p.summary())) {
      out.rowsRead += s.rowsRead;
      out.recordsEmitted += s.recordsEmitted;
      out.skipped += s.skipped;
      for (const [k, v] of Object.entries(s.skippedByReason)) out.skippedByReason[k] = (out.skippedByReason[k] ?? 0) + v;
      out.examples.push(...s.examples.slice(0, Math.max(0, 10 - out.examples.length)));
      if (s.factsSkipped) {
        const f = (out.factsSkipped ??= { count: 0, byReason: {}, examples: [] });
        f.count += s.factsSkipped.count;
        for (const [k, v] of Object.entries(s.factsSkipped.byReason)) f.byReason[k] = (f.byReason[k] ?? 0) + v;
        f.examples.push(...s.factsSkipped.examples.slice(0, Math.max(0, 10 - f.examples.length)));
      }
    }
    return out;
  }

  async declaredEvidence(): Promise<DeclaredEvidence> {
    return firstHit(await Promise.all(this.parts.filter((p) => p.declaredEvidence).map((p) => p.declaredEvidence!())));
  }

  async diseaseKnowledge(): Promise<DiseaseKnowledge> {
    return firstHit(await Promise.all(this.parts.filter((p) => p.diseaseKnowledge).map((p) => p.diseaseKnowledge!())));
  }

  async codedConcepts() {
    return (await Promise.all(this.parts.map((p) => p.codedConcepts?.() ?? Promise.resolve([])))).flat();
  }

  async close(): Promise<void> {
    const failed = (await Promise.allSettled(this.parts.map((p) => p.close()))).find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }
}

/** One lookup over several sources' lookups: the first that knows the diagnosis answers. */
function firstHit<T>(lookups: readonly ((diagnosis: string) => T | null)[]): (diagnosis: string) => T | null {
  return (diagnosis) => {
    for (const l of lookups) {
      const hit = l(diagnosis);
      if (hit !== null) return hit;
    }
    return null;
  };
}
