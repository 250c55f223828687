/**
 * A class-data-sharing archive of the classes Neo4j loads while it starts (the JDK's dynamic
 * AppCDS archive, JEP 350): made once when Neo4j is installed, by starting the assembled server
 * on a scratch instance and stopping it cleanly (the JVM writes the archive as it exits); every
 * later start maps those classes instead of loading and verifying them from the jars again.
 * Measured on this 2-core box at the same load: the JVM's CPU to Bolt-ready 26 s without, 15 s
 * with (issue 49: every test worker, restart and `dxgraph neo4j start` pays it).
 *
 * An archive holds for the JVM that wrote it and the jars it was made from: it is named after
 * the Java binary (path, size, mtime) and removed when the jars are assembled again. A JVM that
 * cannot use it (another build, changed jars) says so in console.log and starts without it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { JavaRuntime } from './java.js';
import type { Neo4jLayout } from './layout.js';

export const archiveDir = (layout: Neo4jLayout) => join(layout.home, 'cds');

/** The archive for this Java binary, under the Neo4j home. */
export function classArchivePath(layout: Neo4jLayout, java: JavaRuntime): string {
  const real = realpathSync(java.path === 'java' ? whichJava() : java.path);
  const st = statSync(real);
  const id = createHash('sha256').update(`${real}\0${st.size}\0${st.mtimeMs}`).digest('hex').slice(0, 12);
  return join(archiveDir(layout), `neo4j-java${java.major}-${id}.jsa`);
}

function whichJava(): string {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const p = join(dir, 'java');
    if (dir && existsSync(p)) return p;
  }
  return 'java';
}

/** The JVM flag that maps the archive, when there is one for this Java. */
export function archiveFlags(layout: Neo4jLayout, java: JavaRuntime): string[] {
  const path = classArchivePath(layout, java);
  return existsSync(path) ? [`-XX:SharedArchiveFile=${path}`] : [];
}

/**
 * Where a training start writes: a scratch instance beside the jars and a temporary archive
 * file, renamed into place only once the JVM has written it whole.
 */
export function trainingPlaces(layout: Neo4jLayout, java: JavaRuntime): { instanceDir: string; partial: string; final: string } {
  const final = classArchivePath(layout, java);
  mkdirSync(archiveDir(layout), { recursive: true });
  const instanceDir = mkdtempSync(join(archiveDir(layout), 'training-'));
  return { instanceDir, partial: join(instanceDir, 'partial.jsa'), final };
}

/** A failed training: its scratch instance and any half-written archive go. */
export function discardTraining(places: { instanceDir: string }): void {
  rmSync(places.instanceDir, { recursive: true, force: true });
}

/** Keep the archive the training JVM wrote; false when it wrote none. */
export function keepArchive(places: { instanceDir: string; partial: string; final: string }): boolean {
  const written = existsSync(places.partial) && statSync(places.partial).size > 0;
  if (written) renameSync(places.partial, places.final);
  rmSync(places.instanceDir, { recursive: true, force: true });
  return written;
}
