/**
 * The class archive (class-archive.ts) cannot hold classes of signed jars: the JVM leaves them out
 * and loads them at every start, checking each class's digest against the jar's signature file.
 * Two of Neo4j 5.26's jars are signed (eclipse-collections and its API: 741 classes loaded at a
 * start and the first build). This makes the local copies in lib/ unsigned: their signature files
 * (META-INF/*.SF, .RSA, .DSA, .EC) go, and so do the manifest's per-entry digest sections, which
 * only a signature check reads (the manifest's main section and any other per-entry attribute
 * stay). The classes are the same bytes. Eclipse Collections is dual-licensed EPL-1.0 / EDL-1.0 (BSD
 * style): both allow a modified copy, and this one never leaves the machine.
 * Measured (docs/neo4j-without-docker.md): `dxgraph neo4j start` 12.8 -> 9.3 s of the JVM's CPU.
 */
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { err, ok, type Result } from '../result.js';
import type { Neo4jLayout } from './layout.js';
import { centralDirectoryOf, entryContent, readCentralDirectory, rewriteZip } from './zip-entries.js';

const SIGNATURE_FILE = /^META-INF\/[^/]+\.(SF|RSA|DSA|EC)$/i;
const MANIFEST = 'META-INF/MANIFEST.MF';

/** Is this jar signed (does it carry a signature file)? Reads its central directory only. */
export function isSignedJar(path: string): Result<boolean> {
  const dir = readCentralDirectory(path);
  return dir.ok ? ok(dir.value.entries.some((e) => SIGNATURE_FILE.test(e.name))) : dir;
}

/**
 * A manifest without its digest-only per-entry sections. A section ends at an empty line; a
 * per-entry section whose every attribute but `Name` is a `*-Digest` one is dropped, every other
 * section is kept byte for byte (no line is re-wrapped).
 */
export function manifestWithoutDigests(text: string): string {
  const [main = '', ...entries] = text.match(/[\s\S]*?(?:\r?\n(?:\r?\n)+|$)/g)!.filter((s) => s !== '');
  const digestOnly = (section: string) =>
    section
      .replace(/\r?\n /g, '') // continuation lines
      .split(/\r?\n/)
      .filter((line) => line !== '')
      .every((line) => /^Name:/i.test(line) || /^[\w-]+-Digest:/i.test(line));
  return main + entries.filter((s) => !digestOnly(s)).join('');
}

/** Rewrite one jar without its signature (a new file renamed over it). */
export function unsignJar(path: string): Result<{ dropped: string[] }> {
  const zip = readFileSync(path);
  const dir = centralDirectoryOf(zip);
  if (!dir.ok) return err(`${path}: ${dir.error}`);
  const manifestEntry = dir.value.entries.find((e) => e.name === MANIFEST);
  const manifest = manifestEntry ? entryContent(zip, manifestEntry) : ok(null);
  if (!manifest.ok) return err(`${path}: ${manifest.error}`);
  const dropped: string[] = [];
  const out = rewriteZip(zip, (e) => {
    if (SIGNATURE_FILE.test(e.name)) {
      dropped.push(e.name);
      return 'drop';
    }
    if (e.name === MANIFEST && manifest.value) return Buffer.from(manifestWithoutDigests(manifest.value.toString('utf8')), 'utf8');
    return 'keep';
  });
  if (!out.ok) return err(`${path}: ${out.error}`);
  const partial = `${path}.unsigning`;
  try {
    writeFileSync(partial, out.value);
    renameSync(partial, path);
  } finally {
    rmSync(partial, { force: true });
  }
  return ok({ dropped });
}

/** Make every signed jar in lib/ unsigned; returns the jars changed (none on a second run). */
export function unsignJars(layout: Neo4jLayout): Result<string[]> {
  const changed: string[] = [];
  for (const jar of readdirSync(layout.libDir).filter((f) => f.endsWith('.jar')).sort()) {
    const path = join(layout.libDir, jar);
    const signed = isSignedJar(path);
    if (!signed.ok) return err(`${jar}: ${signed.error}`);
    if (!signed.value) continue;
    const done = unsignJar(path);
    if (!done.ok) return done;
    changed.push(jar);
  }
  return ok(changed);
}
