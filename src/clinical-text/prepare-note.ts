import type { PreparedNote } from './read-notes.js';

/** Placeholder until scrubbing and sections land. */
export async function defaultNotePreparer(): Promise<(text: string) => PreparedNote> {
  return (text) => ({ text, leftOut: {}, scrubbed: {} });
}
