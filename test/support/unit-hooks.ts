import { fileDone, fileStarted } from './file-times.js';

// Loaded by .mocharc.unit.json "require". The unit files run two at a time in worker processes
// (--parallel --jobs 2, issue 49); root hooks run once per file in a worker, so each file is
// timed there (the main process only sees a worker's events once its file is done).
export const mochaHooks = {
  beforeAll() {
    fileStarted();
  },
  afterAll(this: Mocha.Context) {
    fileDone(this.test!.parent!);
  },
};
