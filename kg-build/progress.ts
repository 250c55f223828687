import cliProgress from 'cli-progress';

/**
 * Progress bars for long stages, on stderr and only when stderr is a terminal (logs and
 * CI output stay clean). A disabled reporter costs nothing.
 */
export interface Progress {
  /** `total` null: a count without a bar (streamed sources do not say how many rows they hold). */
  start(label: string, total: number | null): void;
  update(done: number): void;
  stop(): void;
}

export const NO_PROGRESS: Progress = { start() {}, update() {}, stop() {} };

export function createProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return NO_PROGRESS;
  let bar: cliProgress.SingleBar | null = null;
  return {
    start(label, total) {
      bar?.stop();
      const format = total === null ? `${label.padEnd(12)} {value} records {duration_formatted}` : `${label.padEnd(12)} [{bar}] {value}/{total} {duration_formatted}`;
      bar = new cliProgress.SingleBar({ stream, format, hideCursor: true, clearOnComplete: false }, cliProgress.Presets.shades_classic);
      bar.start(total === null ? 0 : Math.max(1, total), 0);
    },
    update(done) {
      bar?.update(done);
    },
    stop() {
      bar?.stop();
      bar = null;
    },
  };
}
