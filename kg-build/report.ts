import type { ImportSummary } from '../src/sources/types.js';
import type { BuildOutcome } from './pipeline.js';

/** Stage 8: the human build report (stdout). Counts, cluster sizes, the hierarchy as a tree, timings. */
export function formatReport(o: BuildOutcome, extra: { sourceSummary?: ImportSummary; buildDir?: string } = {}): string {
  const c = o.kg;
  const lines: string[] = [];
  const total = Object.values(o.timings).reduce((s, t) => s + t, 0);
  lines.push(`build ${o.buildId}  hierarchy=${o.hierarchy.mode}  llm=${o.llmUsed ? 'yes' : 'no'}  embedder=${o.manifest.embedder}`);
  // Which hierarchy and why (issue 19): auto picks ICD-10, LLM or statistical from the source and config.
  if (o.hierarchy.reason) lines.push(`hierarchy: ${o.hierarchy.mode}, ${o.hierarchy.reason}`);
  const src = extra.sourceSummary;
  lines.push(`records: ${o.scan.recordCount} in the build, ${o.scan.excluded} held out (test split)${src ? `, ${skippedRows(src)}` : ''}${src?.factsSkipped ? `, ${src.factsSkipped.count} source facts gave no finding (${Object.entries(src.factsSkipped.byReason).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'})` : ''}`);
  lines.push(
    `tiers: L1 categories ${c.categories.length} | L2 subcategories ${c.subcategories.length} | L3 diseases ${c.diseases.length} | ` +
      `L4 features ${c.features.length} (ehr ${c.features.filter((f) => f.kind === 'ehr').length}, augmented ${c.features.filter((f) => f.kind === 'augmented').length})`,
  );
  const mixed = c.diseases.filter((d) => d.notedRecords).length;
  const mentions = mixed > 0 ? ` | notes mentions ${c.notesMentions?.length ?? 0} (${mixed} diseases with coded records and notes: free text is read against their notes)` : '';
  lines.push(`edges: manifestations ${c.manifestations.length}${mentions} | key differences ${c.keyDifferences.length} (statistical ${c.keyDifferences.filter((k) => k.source === 'statistical').length}, llm ${c.keyDifferences.filter((k) => k.source === 'llm').length})`);
  const split = o.manifest.split;
  if (split) {
    const side = (p: 'train' | 'test') => `${split[p].records} records of ${split[p].patients} ${split.unit === 'record' ? 'records' : 'patients'}`;
    lines.push(`split: by ${split.unit}, test fraction ${split.testFraction}, seed ${split.seed}${split.stratify ? ', stratified' : ''}: train ${side('train')}, held out ${side('test')} (dxgraph eval --test <this source> evaluates the held-out part)`);
  }
  const n = o.notes;
  if (n && n.notes > 0) {
    const by = (r: Record<string, number>) => Object.entries(r).map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
    lines.push(`notes: ${n.notes} notes of ${n.records} records read; ${n.findings} vocabulary findings, ${n.unread} findings no vocabulary read; emergent concepts ${n.emergent.kept} kept of ${n.emergent.candidates} candidate phrases (${n.support.undiagnostic} more shared by k patients but associated with no disease)`);
    lines.push(`notes support: ${n.support.unsupportedEdges} disease-finding pairs stated by too few of the disease's notes left out; ${n.support.sharedFindingEdges} more stated by one note kept, the finding being backed in other diseases; ${n.support.thinDiseases} diseases with fewer notes than the support rule needs keep theirs; ${n.support.overBudgetFeatures} features learnt from notes left out, over the budget of features per note (--max-note-feature-share)`);
    lines.push(`  left out (sections stating the diagnosis, characters): ${by(n.leftOut)}; identifiers scrubbed: ${by(n.scrubbed)}`);
    lines.push(...notesLearntLines(o));
  }
  const known = c.diseases.filter((d) => d.knownEvidence && d.knownEvidence.length > 0);
  if (known.length > 0) lines.push(`knowledge: ${known.length} diseases with curated rates of findings their records may never show, used for free text (${known.map((d) => `${d.name}: ${d.knownEvidence!.length} from ${d.knowledgeSource ?? 'the source'}`).join('; ')})`);
  if (o.triples.rows > 0) lines.push(`triples: ${o.triples.rows} rows imported as L4a, ${o.triples.unmatched} with a subject that names no disease (skipped)`);
  const sizes = c.diseases.map((d) => d.recordCount).sort((a, b) => a - b);
  const merged = c.diseases.filter((d) => d.aliases.length > 0);
  lines.push(`disease clusters: ${o.scan.diagnoses.length} raw names -> ${c.diseases.length} diseases; records per disease min ${sizes[0] ?? 0}, median ${sizes[Math.floor(sizes.length / 2)] ?? 0}, max ${sizes.at(-1) ?? 0}`);
  for (const d of merged) lines.push(`  ${d.name} <- ${d.aliases.join(' | ')}`);
  lines.push(`neo4j: ${o.neo4j.batches} batches, stale removed: ${o.neo4j.stale.nodes} nodes, ${o.neo4j.stale.relationships} relationships`);
  lines.push(`  counts: ${Object.entries(o.neo4j.counts).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  lines.push(`indexes: records ${o.manifest.recordIndex.kind} ${o.manifest.recordIndex.size}, features flat ${o.manifest.featureIndex.size}, dim ${o.manifest.embeddingDim}${extra.buildDir ? ` -> ${extra.buildDir}` : ''}`);
  lines.push('hierarchy:');
  lines.push(...hierarchyTree(o));
  lines.push(`timings (ms): ${Object.entries(o.timings).map(([k, v]) => `${k} ${v}`).join(' | ')} | total ${total}`);
  return lines.join('\n');
}

/**
 * What notes taught per disease (issue 47; notes-learnt.ts): the diseases with fewest such features
 * first, since those are the ones a reader should look at. Feature texts are vocabulary names or
 * emergent concepts (phrases shared by k patients), never a note's own words.
 */
export function notesLearntLines(o: Pick<BuildOutcome, 'kg' | 'notes'>): string[] {
  const learnt = o.notes?.support.learnt ?? [];
  if (learnt.length === 0) return [];
  const name = new Map(o.kg.diseases.map((d) => [d.id, d.name]));
  const rows = [...learnt].sort((a, b) => a.features - b.features || (name.get(a.diseaseId) ?? a.diseaseId).localeCompare(name.get(b.diseaseId) ?? b.diseaseId));
  return [
    `notes learnt per disease (${learnt.filter((d) => d.features === 0).length} of ${learnt.length} diseases with notes have no feature learnt from notes; fewest first):`,
    ...rows.map((d) => `  ${name.get(d.diseaseId) ?? d.diseaseId}: ${d.notes} notes, ${d.features} features${d.top.length > 0 ? `: ${d.top.join('; ')}` : ''}`),
  ];
}

/** Rows the source did not turn into records, by what they are (no diagnosis, no person, bad age…), not all "malformed". */
export function skippedRows(src: ImportSummary): string {
  const by = Object.entries(src.skippedByReason).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return `${src.skipped} source rows skipped${by.length > 0 ? ` (${by.map(([k, n]) => `${k} ${n}`).join(', ')})` : ''}`;
}

/** The hierarchy as an indented tree: category > subcategory > diseases (record counts). */
export function hierarchyTree(o: Pick<BuildOutcome, 'kg'>): string[] {
  const out: string[] = [];
  const { categories, subcategories, diseases } = o.kg;
  categories.forEach((cat, ci) => {
    const lastCat = ci === categories.length - 1;
    out.push(`${lastCat ? '└─' : '├─'} ${cat.name}`);
    const subs = subcategories.filter((s) => s.categoryId === cat.id);
    subs.forEach((sub, si) => {
      const pad = lastCat ? '   ' : '│  ';
      const members = diseases.filter((d) => d.subcategoryId === sub.id).map((d) => `${d.name} (${d.recordCount})`);
      out.push(`${pad}${si === subs.length - 1 ? '└─' : '├─'} ${sub.name}: ${members.join(', ')}`);
    });
  });
  return out;
}
