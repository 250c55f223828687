/**
 * Just enough of the ZIP format (PKWARE APPNOTE 6.3.x, sections 4.3.7, 4.3.12, 4.3.16) to list a
 * jar's entries from its central directory and to write a copy without some entries or with one
 * entry's content replaced. Kept entries are copied byte for byte (header, compressed data, data
 * descriptor), so nothing is recompressed. ZIP64 archives (more than 65,535 entries or 4 GB) are
 * refused: Neo4j's jars are far below both.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { err, ok, type Result } from '../result.js';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const EOCD_MIN = 22;
const MAX_COMMENT = 0xffff;

export interface ZipEntry {
  name: string;
  /** This entry's central directory record, as read. */
  central: Buffer;
  localOffset: number;
}

export interface CentralDirectory {
  entries: ZipEntry[];
  /** Where the central directory starts: the end of the last entry's data. */
  start: number;
  comment: Buffer;
}

/** The central directory of a zip held in `tail`, the file's last bytes (`tailAt` its offset in the file). */
function parseCentral(tail: Buffer, tailAt: number, readAt: (offset: number, length: number) => Buffer): Result<CentralDirectory> {
  let eocd = -1;
  for (let i = tail.length - EOCD_MIN; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return err('no end of central directory record (not a zip file)');
  const count = tail.readUInt16LE(eocd + 10);
  const size = tail.readUInt32LE(eocd + 12);
  const start = tail.readUInt32LE(eocd + 16);
  if (count === 0xffff || size === 0xffffffff || start === 0xffffffff) return err('a ZIP64 archive (not supported)');
  const comment = Buffer.from(tail.subarray(eocd + 22, eocd + 22 + tail.readUInt16LE(eocd + 20)));
  const cd = start >= tailAt ? tail.subarray(start - tailAt, start - tailAt + size) : readAt(start, size);
  const entries: ZipEntry[] = [];
  for (let p = 0; p < cd.length; ) {
    if (cd.readUInt32LE(p) !== CENTRAL) return err(`a broken central directory record at byte ${start + p}`);
    const length = 46 + cd.readUInt16LE(p + 28) + cd.readUInt16LE(p + 30) + cd.readUInt16LE(p + 32);
    const central = Buffer.from(cd.subarray(p, p + length));
    entries.push({ name: central.toString('utf8', 46, 46 + central.readUInt16LE(28)), central, localOffset: central.readUInt32LE(42) });
    p += length;
  }
  if (entries.length !== count) return err(`the central directory lists ${entries.length} entries, its end record ${count}`);
  return ok({ entries, start, comment });
}

/** A zip file's entries, reading only its tail and central directory. */
export function readCentralDirectory(path: string): Result<CentralDirectory> {
  const fd = openSync(path, 'r');
  try {
    const fileSize = fstatSync(fd).size;
    const tailAt = Math.max(0, fileSize - EOCD_MIN - MAX_COMMENT);
    const readAt = (offset: number, length: number) => {
      const b = Buffer.alloc(length);
      readSync(fd, b, 0, length, offset);
      return b;
    };
    return parseCentral(readAt(tailAt, fileSize - tailAt), tailAt, readAt);
  } finally {
    closeSync(fd);
  }
}

/** The same for a zip held in memory. */
export function centralDirectoryOf(zip: Buffer): Result<CentralDirectory> {
  const tailAt = Math.max(0, zip.length - EOCD_MIN - MAX_COMMENT);
  return parseCentral(zip.subarray(tailAt), tailAt, (o, n) => zip.subarray(o, o + n));
}

/** An entry's uncompressed content (stored or deflated, the two methods jars use). */
export function entryContent(zip: Buffer, entry: ZipEntry): Result<Buffer> {
  const method = entry.central.readUInt16LE(10);
  const size = entry.central.readUInt32LE(20);
  if (zip.readUInt32LE(entry.localOffset) !== LOCAL) return err(`no local header for ${entry.name}`);
  const start = entry.localOffset + 30 + zip.readUInt16LE(entry.localOffset + 26) + zip.readUInt16LE(entry.localOffset + 28);
  const data = zip.subarray(start, start + size);
  if (method === 0) return ok(Buffer.from(data));
  if (method === 8) return ok(inflateRawSync(data));
  return err(`${entry.name}: compression method ${method} (not supported)`);
}

/** What becomes of an entry: kept as it is, dropped, or given new (uncompressed) content. */
export type EntryEdit = 'keep' | 'drop' | Buffer;

/** A copy of `zip` with each entry kept, dropped or replaced as `edit` says. */
export function rewriteZip(zip: Buffer, edit: (entry: ZipEntry) => EntryEdit): Result<Buffer> {
  const dir = centralDirectoryOf(zip);
  if (!dir.ok) return dir;
  // An entry's local bytes run up to the next entry's local header (or the central directory).
  const offsets = [...dir.value.entries.map((e) => e.localOffset), dir.value.start].sort((a, b) => a - b);
  const endOf = (offset: number) => offsets[offsets.indexOf(offset) + 1]!;
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let at = 0;
  for (const entry of dir.value.entries) {
    const what = edit(entry);
    if (what === 'drop') continue;
    if (zip.readUInt32LE(entry.localOffset) !== LOCAL) return err(`no local header for ${entry.name}`);
    const [local, central] = what === 'keep' ? [zip.subarray(entry.localOffset, endOf(entry.localOffset)), Buffer.from(entry.central)] : replaced(entry, what);
    central.writeUInt32LE(at, 42);
    locals.push(local);
    centrals.push(central);
    at += local.length;
  }
  const cdSize = centrals.reduce((s, c) => s + c.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(EOCD, 0);
  end.writeUInt16LE(centrals.length, 8);
  end.writeUInt16LE(centrals.length, 10);
  end.writeUInt32LE(cdSize, 12);
  end.writeUInt32LE(at, 16);
  end.writeUInt16LE(dir.value.comment.length, 20);
  return ok(Buffer.concat([...locals, ...centrals, end, dir.value.comment]));
}

/** Local and central records for `content`, deflated, with the entry's name and times (no extras, no data descriptor). */
function replaced(entry: ZipEntry, content: Buffer): [Buffer, Buffer] {
  const data = deflateRawSync(content);
  const name = entry.central.subarray(46, 46 + entry.central.readUInt16LE(28));
  const local = Buffer.alloc(30);
  local.writeUInt32LE(LOCAL, 0);
  local.writeUInt16LE(20, 4); // version needed: deflate
  local.writeUInt16LE(entry.central.readUInt16LE(8) & 0x0800, 6); // only the UTF-8 name flag is kept
  local.writeUInt16LE(8, 8);
  entry.central.copy(local, 10, 12, 16); // modification time and date
  local.writeUInt32LE(crc32(content), 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  entry.central.copy(central, 0, 0, 8); // signature, made by, version needed
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(entry.central.readUInt16LE(8) & 0x0800, 8);
  central.writeUInt16LE(8, 10);
  entry.central.copy(central, 12, 12, 16);
  central.writeUInt32LE(crc32(content), 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(name.length, 28);
  entry.central.copy(central, 36, 36, 42); // internal and external attributes
  return [Buffer.concat([local, name, data]), Buffer.concat([central, name])];
}
