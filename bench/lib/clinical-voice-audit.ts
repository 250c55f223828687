/**
 * What a clinician reads in one answer, checked against the clinical voice (issue 48 items 2-3):
 * follow-up questions, the differential's evidence labels, the differences KG's manifestation and
 * key-difference labels, the matched features, the similar records' summaries, and manifestations shown under 30% of their
 * disease's records. Counts
 * and the worst examples; never patient text (labels and questions are the KG's).
 */
import type { DiagnoseResult } from '../../src/query/contracts.js';
import { labelProblems, questionProblems, type VoiceProblem } from '../../src/presentation/voice-checks.js';

export const MIN_SHOWN_PREVALENCE = 0.3;

export interface Offence {
  where: string;
  text: string;
  problems: VoiceProblem[];
}

export class VoiceAudit {
  readonly seen = new Map<string, { questions: number; labels: number }>();
  readonly offences = new Map<string, Offence & { count: number }>();
  lowManifestations = 0;
  manifestationsShown = 0;
  readonly lowExamples = new Map<string, number>();
  readonly followUpsPerAnswer: number[] = [];

  private tally(where: string, kind: 'questions' | 'labels', text: string, problems: VoiceProblem[]): void {
    const s = this.seen.get(where) ?? { questions: 0, labels: 0 };
    s[kind] += 1;
    this.seen.set(where, s);
    if (problems.length === 0) return;
    const key = `${where}\u0000${text}`;
    const o = this.offences.get(key) ?? { where, text, problems, count: 0 };
    o.count += 1;
    this.offences.set(key, o);
  }

  question(where: string, text: string): void {
    this.tally(where, 'questions', text, questionProblems(text));
  }

  label(where: string, text: string): void {
    this.tally(where, 'labels', text, labelProblems(text));
  }

  /** One /v1/diagnose answer. */
  answer(res: DiagnoseResult): void {
    this.followUpsPerAnswer.push(res.followUps.length);
    for (const q of res.followUps) this.question('diagnose follow-up', q.text);
    for (const d of res.differential) {
      for (const line of d.evidence) {
        // "+ <label>: P=0.82 in disease, ..." (feature lines); "key difference (present): <label>: 81% in ..." (priors).
        const feature = /^[+-] (.*): P=[\d.]+ in disease/.exec(line);
        if (feature) this.label('differential evidence', feature[1]!);
        const kd = /^key difference \(\w+\): (.*?): \d+% in /.exec(line);
        if (kd) this.label('differential evidence (key difference)', kd[1]!);
      }
    }
    for (const m of res.trace.matches) this.label('matched feature', m.featureLabel ?? m.featureText);
    // A similar record's summary: "Female, 10: <label>; <label>; …" (a build before summaries shows its source text: counted as missing).
    for (const r of res.trace.retrieved) {
      if (r.summary === null) {
        this.label('similar record (no summary)', r.text.split('\n')[0] ?? '');
        continue;
      }
      const findings = r.summary.replace(/^(?:(?:Male|Female)(?:, \d+)?|\d+): /, '');
      if (findings !== 'no findings recorded') for (const l of findings.split('; ')) this.label('similar record summary', l);
    }
    for (const t of res.trace.differencesKg) {
      if (t.relation === 'HAS_MANIFESTATION') {
        this.label('differences KG manifestation', t.object);
        this.manifestationsShown += 1;
        if (t.weight !== null && t.weight < MIN_SHOWN_PREVALENCE) {
          this.lowManifestations += 1;
          const k = `${t.subject} -> ${t.object} (${t.weight.toFixed(2)})`;
          this.lowExamples.set(k, (this.lowExamples.get(k) ?? 0) + 1);
        }
      } else if (t.relation === 'HAS_KEY_DIFFERENCE') {
        const m = /^(.*?): \d+% in /.exec(t.object);
        this.label('differences KG key difference', m ? m[1]! : t.object);
      }
    }
  }

  report(worst = 6): string {
    const lines: string[] = [];
    const by = new Map<string, (Offence & { count: number })[]>();
    for (const o of this.offences.values()) by.set(o.where, [...(by.get(o.where) ?? []), o]);
    lines.push('where                                      | shown (distinct offending / occurrences)');
    for (const [where, s] of [...this.seen].sort()) {
      const os = by.get(where) ?? [];
      const occurrences = os.reduce((n, o) => n + o.count, 0);
      lines.push(`${where.padEnd(42)} | ${s.questions + s.labels} shown, ${os.length} distinct breaking the forms (${occurrences} times)`);
      for (const o of os.sort((a, b) => b.count - a.count).slice(0, worst)) lines.push(`    ${String(o.count).padStart(5)}x ${JSON.stringify(o.text)} [${o.problems.join(', ')}]`);
    }
    lines.push(`manifestations shown under ${MIN_SHOWN_PREVALENCE * 100}% of their disease's records: ${this.lowManifestations} of ${this.manifestationsShown}`);
    for (const [k, n] of [...this.lowExamples].sort((a, b) => b[1] - a[1]).slice(0, worst)) lines.push(`    ${String(n).padStart(5)}x ${k}`);
    const f = this.followUpsPerAnswer;
    const hist = new Map<number, number>();
    for (const n of f) hist.set(n, (hist.get(n) ?? 0) + 1);
    lines.push(`follow-ups per answer: mean ${(f.reduce((a, b) => a + b, 0) / Math.max(1, f.length)).toFixed(2)} over ${f.length} answers; ${[...hist].sort((a, b) => a[0] - b[0]).map(([k, v]) => `${k}: ${v}`).join(', ')}`);
    return lines.join('\n');
  }

  summary(): { questionsBreaking: number; labelsBreaking: number; lowManifestations: number; followUpsMean: number } {
    let q = 0;
    let l = 0;
    for (const o of this.offences.values()) if (o.where.includes('question') || o.where.includes('follow-up')) q += 1; else l += 1;
    const f = this.followUpsPerAnswer;
    return { questionsBreaking: q, labelsBreaking: l, lowManifestations: this.lowManifestations, followUpsMean: f.reduce((a, b) => a + b, 0) / Math.max(1, f.length) };
  }
}
