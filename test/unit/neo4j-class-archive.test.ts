import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { archiveFlags, classArchivePath, discardTraining, keepArchive, trainingPlaces } from '../../src/neo4j-launcher/class-archive.js';
import { makeLayout } from '../../src/neo4j-launcher/layout.js';
import { jvmArgs } from '../../src/neo4j-launcher/process.js';
import { launcherSettings } from '../../src/neo4j-launcher/settings.js';

describe('Neo4j class archive (src/neo4j-launcher/class-archive.ts)', () => {
  let home: string;
  let fakeJava: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'dx-cds-'));
    fakeJava = join(home, 'java');
    writeFileSync(fakeJava, '#!/bin/sh\n');
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('is named after the Java binary: the same binary, the same archive; another binary, another', () => {
    const layout = makeLayout({ home });
    const a = classArchivePath(layout, { path: fakeJava, major: 17 });
    assert.equal(classArchivePath(layout, { path: fakeJava, major: 17 }), a);
    assert.match(a, /cds\/neo4j-java17-[0-9a-f]{12}\.jsa$/);
    writeFileSync(fakeJava, '#!/bin/sh\n# another build\n');
    assert.notEqual(classArchivePath(layout, { path: fakeJava, major: 17 }), a);
  });

  it('a start maps the archive only once there is one, and before the main class', () => {
    const layout = makeLayout({ home });
    const java = { path: fakeJava, major: 17 };
    assert.deepEqual(archiveFlags(layout, java), []);
    const places = trainingPlaces(layout, java);
    writeFileSync(places.partial, 'archive bytes');
    assert.equal(keepArchive(places), true);
    assert.equal(existsSync(places.instanceDir), false, 'the scratch instance is removed');
    const flags = archiveFlags(layout, java);
    assert.deepEqual(flags, [`-XX:SharedArchiveFile=${classArchivePath(layout, java)}`]);
    const args = jvmArgs(launcherSettings({ env: {}, home }), { classArchive: flags });
    assert.ok(args.indexOf(flags[0]!) < args.indexOf('-cp'));
  });

  it('a training that wrote nothing keeps nothing and leaves no scratch instance', () => {
    const layout = makeLayout({ home });
    const java = { path: fakeJava, major: 17 };
    const places = trainingPlaces(layout, java);
    assert.equal(keepArchive(places), false);
    assert.equal(existsSync(places.instanceDir), false);
    const again = trainingPlaces(layout, java);
    discardTraining(again);
    assert.equal(existsSync(again.instanceDir), false);
    assert.deepEqual(archiveFlags(layout, java), []);
  });
});
