import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ArtifactError } from '../src/errors.js';
import { err, ok, type Result } from '../src/result.js';
import type { ConceptNames } from './hierarchy-names.js';
import { stableHash } from './text.js';

/**
 * Reads the canonical phrases of a concept lexicon (datasets/lexicon/ddxplus-lexicon.json,
 * schema in src/clinical-text/concepts/lexicon.ts) for hierarchy names. Only the fields naming needs are
 * read (evidence, value and site canonicals); the concept layer validates the whole file. A
 * missing file is no error (the lexicon is optional: names are then cut from the questions);
 * an unreadable or malformed one is.
 */
export function defaultLexiconPath(): string {
  return fileURLToPath(new URL('../datasets/lexicon/ddxplus-lexicon.json', import.meta.url));
}

const canonical = z.object({ canonical: z.string().trim().min(1) });
const LexiconNamesSchema = z.object({
  sites: z.record(z.string(), canonical).default({}),
  evidences: z.record(z.string(), canonical.extend({ valueSet: z.literal('sites').nullable().default(null), values: z.record(z.string(), canonical).default({}) })),
});

export function conceptNamesFrom(raw: unknown, path: string): Result<ConceptNames, ArtifactError> {
  const parsed = LexiconNamesSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return err(new ArtifactError(path, `lexicon ${path}: ${issue.path.join('.') || '(root)'}: ${issue.message}`));
  }
  const { sites, evidences } = parsed.data;
  return ok({
    // "-voice": coded features are named by the clinical voice's reviewed labels (hierarchy-names.ts), a build named before them is another build.
    id: `lexicon-${stableHash(JSON.stringify(parsed.data))}-voice`,
    evidence: (code) => evidences[code]?.canonical ?? null,
    value: (code, valueCode) => {
      const ev = evidences[code];
      if (!ev) return null;
      return (ev.valueSet === 'sites' ? sites[valueCode]?.canonical : ev.values[valueCode]?.canonical) ?? null;
    },
  });
}

/** The lexicon's names, null when there is no file at `path`. */
export async function loadConceptNames(path: string): Promise<Result<ConceptNames | null, ArtifactError>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return ok(null);
    return err(new ArtifactError(path, `cannot read lexicon ${path}: ${(e as Error).message}`, { cause: e }));
  }
  try {
    return conceptNamesFrom(JSON.parse(text), path);
  } catch (e) {
    return err(new ArtifactError(path, `lexicon ${path} is not valid JSON: ${(e as Error).message}`, { cause: e }));
  }
}
