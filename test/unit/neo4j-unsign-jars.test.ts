import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import yauzl from 'yauzl';
import { makeLayout } from '../../src/neo4j-launcher/layout.js';
import { isSignedJar, manifestWithoutDigests, unsignJars } from '../../src/neo4j-launcher/unsign-jars.js';
import { centralDirectoryOf, entryContent, rewriteZip, type ZipEntry } from '../../src/neo4j-launcher/zip-entries.js';

/** A zip written by hand: stored or deflated entries, optionally with a data descriptor (bit 3), and a comment. */
function zipOf(entries: { name: string; text: string; deflate?: boolean; descriptor?: boolean }[], comment = ''): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let at = 0;
  for (const e of entries) {
    const content = Buffer.from(e.text);
    const data = e.deflate ? deflateRawSync(content) : content;
    const name = Buffer.from(e.name);
    const flags = e.descriptor ? 0x0008 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(e.deflate ? 8 : 0, 8);
    local.writeUInt32LE(0x5a21_6b30, 10); // a fixed time and date
    if (!e.descriptor) {
      local.writeUInt32LE(crc32(content), 14);
      local.writeUInt32LE(data.length, 18);
      local.writeUInt32LE(content.length, 22);
    }
    local.writeUInt16LE(name.length, 26);
    const descriptor = Buffer.alloc(e.descriptor ? 16 : 0);
    if (e.descriptor) {
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc32(content), 4);
      descriptor.writeUInt32LE(data.length, 8);
      descriptor.writeUInt32LE(content.length, 12);
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(e.deflate ? 8 : 0, 10);
    central.writeUInt32LE(0x5a21_6b30, 12);
    central.writeUInt32LE(crc32(content), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(content.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(at, 42);
    const whole = Buffer.concat([local, name, data, descriptor]);
    locals.push(whole);
    centrals.push(Buffer.concat([central, name]));
    at += whole.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(at, 16);
  end.writeUInt16LE(Buffer.byteLength(comment), 20);
  return Buffer.concat([...locals, cd, end, Buffer.from(comment)]);
}

/** Every entry of a zip file as another reader (yauzl) sees it, content checked against its CRC-32. */
function readWithYauzl(path: string): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (e, zip) => {
      if (e) return reject(e);
      const out = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (e2, stream) => {
          if (e2) return reject(e2);
          const parts: Buffer[] = [];
          stream.on('data', (b: Buffer) => parts.push(b));
          stream.on('end', () => {
            const content = Buffer.concat(parts);
            if (crc32(content) !== entry.crc32) return reject(new Error(`CRC mismatch in ${entry.fileName}`));
            out.set(entry.fileName, content.toString('utf8'));
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

const MAIN = 'Manifest-Version: 1.0\r\nBundle-Description: a long description that goes on past seventy-two \r\n bytes, on a continuation line\r\nAutomatic-Module-Name: x.y\r\n\r\n';
const DIGEST_A = 'Name: org/x/A.class\r\nSHA-256-Digest: 7WDqv6+iY1IeX3X4QM0D105Pdmznnqwctf8TPZBR+hM=\r\n\r\n';
const DIGEST_LONG = 'Name: org/x/a/very/long/package/name/that/needs/a/continuation/LongNa\r\n me.class\r\nSHA1-Digest: AAAA\r\nSHA-256-Digest: BBBB\r\n\r\n';
const SEALED = 'Name: org/x/sealed/\r\nSealed: true\r\nSHA-256-Digest: CCCC\r\n\r\n';

describe('Neo4j jars made unsigned for the class archive (src/neo4j-launcher/unsign-jars.ts, zip-entries.ts)', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'dx-unsign-'));
    mkdirSync(join(home, 'lib'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('a manifest keeps its main section and every section with more than digests, byte for byte', () => {
    assert.equal(manifestWithoutDigests(MAIN + DIGEST_A + SEALED + DIGEST_LONG), MAIN + SEALED);
    assert.equal(manifestWithoutDigests(MAIN + DIGEST_A), MAIN);
    // \n line ends and a manifest without entry sections are left as they are
    const unix = MAIN.replace(/\r\n/g, '\n');
    assert.equal(manifestWithoutDigests(unix + DIGEST_A.replace(/\r\n/g, '\n')), unix);
    assert.equal(manifestWithoutDigests('Manifest-Version: 1.0\r\n'), 'Manifest-Version: 1.0\r\n');
  });

  it('a signed jar loses its signature files and digests, every other entry is the same bytes, another reader reads it', async () => {
    const classes = [
      { name: 'org/x/A.class', text: 'class A bytes '.repeat(40), deflate: true },
      { name: 'org/x/B.class', text: 'class B', descriptor: true, deflate: true },
      { name: 'META-INF/services/org.x.Factory', text: 'org.x.A\n' },
    ];
    const signed = zipOf(
      [
        { name: 'META-INF/MANIFEST.MF', text: MAIN + DIGEST_A + SEALED, deflate: true },
        { name: 'META-INF/ECLIPSE_.SF', text: 'signature file' },
        { name: 'META-INF/ECLIPSE_.RSA', text: 'signature block', deflate: true },
        ...classes,
      ],
      'a zip comment',
    );
    const plain = zipOf([{ name: 'META-INF/MANIFEST.MF', text: MAIN }, ...classes]);
    const layout = makeLayout({ home });
    writeFileSync(join(layout.libDir, 'signed.jar'), signed);
    writeFileSync(join(layout.libDir, 'plain.jar'), plain);
    assert.deepEqual(isSignedJar(join(layout.libDir, 'signed.jar')), { ok: true, value: true });
    assert.deepEqual(isSignedJar(join(layout.libDir, 'plain.jar')), { ok: true, value: false });

    assert.deepEqual(unsignJars(layout), { ok: true, value: ['signed.jar'] });
    assert.deepEqual(isSignedJar(join(layout.libDir, 'signed.jar')), { ok: true, value: false });
    assert.deepEqual(readFileSync(join(layout.libDir, 'plain.jar')), plain, 'an unsigned jar is not touched');
    const read = await readWithYauzl(join(layout.libDir, 'signed.jar'));
    assert.deepEqual([...read.keys()], ['META-INF/MANIFEST.MF', ...classes.map((c) => c.name)]);
    assert.equal(read.get('META-INF/MANIFEST.MF'), MAIN + SEALED);
    for (const c of classes) assert.equal(read.get(c.name), c.text);
    // Kept entries are copied, not recompressed: their local records are the same bytes.
    const before = centralDirectoryOf(signed);
    const after = centralDirectoryOf(readFileSync(join(layout.libDir, 'signed.jar')));
    assert.ok(before.ok && after.ok);
    for (const c of classes) {
      const was: ZipEntry = before.value.entries.find((e) => e.name === c.name)!;
      const is: ZipEntry = after.value.entries.find((e) => e.name === c.name)!;
      assert.deepEqual(is.central.subarray(0, 42), was.central.subarray(0, 42));
    }
    assert.equal(after.value.comment.toString(), 'a zip comment');
    // A second run finds nothing to do (setup stays idempotent).
    const again = readFileSync(join(layout.libDir, 'signed.jar'));
    assert.deepEqual(unsignJars(layout), { ok: true, value: [] });
    assert.deepEqual(readFileSync(join(layout.libDir, 'signed.jar')), again);
  });

  it('rewriting can drop and replace entries; what is not a zip is an error, not an exception', () => {
    const zip = zipOf([
      { name: 'a.txt', text: 'alpha', deflate: true },
      { name: 'b.txt', text: 'beta' },
    ]);
    const out = rewriteZip(zip, (e) => (e.name === 'a.txt' ? 'drop' : Buffer.from('BETA')));
    assert.ok(out.ok);
    const dir = centralDirectoryOf(out.value);
    assert.ok(dir.ok);
    assert.deepEqual(dir.value.entries.map((e) => e.name), ['b.txt']);
    const content = entryContent(out.value, dir.value.entries[0]!);
    assert.ok(content.ok);
    assert.equal(content.value.toString(), 'BETA');
    assert.equal(dir.value.entries[0]!.central.readUInt32LE(16), crc32(Buffer.from('BETA')));

    const notZip = rewriteZip(Buffer.from('not a zip file at all, just text'), () => 'keep');
    assert.equal(notZip.ok, false);
    writeFileSync(join(home, 'lib', 'broken.jar'), 'no zip here');
    const res = unsignJars(makeLayout({ home }));
    assert.equal(res.ok, false);
    assert.match(res.ok ? '' : res.error, /broken\.jar: no end of central directory/);
  });
});
