import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { InputError } from '../../errors.js';

/** A patients file in a DDXPlus directory: plain CSV, or an entry of a zip archive. */
export interface PatientFile {
  /** Name used in record ids and locations (the entry's own name for zipped files). */
  name: string;
  path: string;
  zipEntry: string | null;
}

/** `*.csv` or the official extension-less `release_{train,validate,test}_patients`. */
export function isPatientFileName(name: string): boolean {
  return /\.csv$/i.test(name) || /^release_[a-z]+_patients$/i.test(name);
}

function listZipEntries(path: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (e, zip) => {
      if (e || !zip) return reject(new InputError(`cannot open zip ${path}: ${e?.message}`, { cause: e }));
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith('/') && isPatientFileName(basename(entry.fileName))) names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/**
 * Finds the patient files of a DDXPlus directory, sorted by name. A zip whose entry is also
 * present unzipped is the same data twice: the plain file wins, so ids stay unique.
 */
export async function findPatientFiles(dir: string): Promise<PatientFile[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch (e) {
    throw new InputError(`cannot read DDXPlus directory ${dir}: ${(e as Error).message}`, { cause: e });
  }
  const files: PatientFile[] = names.filter(isPatientFileName).map((n) => ({ name: n, path: join(dir, n), zipEntry: null }));
  const seen = new Set(files.map((f) => f.name));
  for (const zipName of names.filter((n) => /\.zip$/i.test(n))) {
    const zipPath = join(dir, zipName);
    for (const entry of await listZipEntries(zipPath)) {
      const name = basename(entry);
      if (seen.has(name)) continue;
      seen.add(name);
      files.push({ name, path: zipPath, zipEntry: entry });
    }
  }
  if (files.length === 0) throw new InputError(`no patient files (*.csv or release_*_patients[.zip]) in ${dir}`);
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Opens one patient file as a byte stream; zip entries are inflated on the fly, never extracted. */
export function openPatientFile(file: PatientFile): Promise<Readable> {
  if (file.zipEntry === null) return Promise.resolve(createReadStream(file.path));
  const wanted = file.zipEntry;
  return new Promise((resolve, reject) => {
    yauzl.open(file.path, { lazyEntries: true, autoClose: false }, (e, zip) => {
      if (e || !zip) return reject(new InputError(`cannot open zip ${file.path}: ${e?.message}`, { cause: e }));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== wanted) return zip.readEntry();
        zip.openReadStream(entry, (e2, stream) => {
          if (e2 || !stream) return reject(new InputError(`cannot read ${wanted} in ${file.path}: ${e2?.message}`, { cause: e2 }));
          stream.on('close', () => zip.close());
          resolve(stream);
        });
      });
      zip.on('end', () => reject(new InputError(`${wanted} not found in ${file.path}`)));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
