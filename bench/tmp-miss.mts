import { loadNotesSet } from '/work/main/bench/lib/notes-kg-run.ts';
import { buildMemoryKg, askMemoryKg } from '/work/main/bench/lib/notes-kg-memory.ts';
import { loadNoteReader } from '/work/main/kg-build/note-reader.ts';
import { HashedEmbedder } from '/work/main/src/adapters/embeddings/index.ts';
import { WordLlamaEmbedder } from '/work/main/src/adapters/embeddings/wordllama-embedder.ts';
import { decompose } from '/work/main/src/query/decompose.ts';
import { matchConcepts } from '/work/main/src/concepts/match-concepts.ts';
const train = await loadNotesSet(process.argv[2]!); const test = await loadNotesSet(process.argv[3]!);
const r = await loadNoteReader();
const kg = await buildMemoryKg(train.notes.map((n, i) => ({ id: `n:${i}`, diagnosis: n.condition, icd10: null, age: n.age, sex: n.sex, findings: [], initialFindingCode: null, text: '', location: n.id, notes: [{ origin: 'text', title: null, text: n.text }] })), { reader: r.deps, embeddings: new HashedEmbedder() });
const wl = await WordLlamaEmbedder.load(); const pe = wl.ok ? wl.value : null;
let ok = 0;
for (const n of test.notes) {
  const ranked = askMemoryKg(kg.snapshot, n.text, { lexicon: r.deps.lexicon, phraseEmbedder: pe });
  if (ranked[0] === n.condition) { ok++; continue; }
  const d = decompose({ text: n.text, findings: [] });
  const m = matchConcepts({ snapshot: kg.snapshot, lexicon: r.deps.lexicon, phraseEmbedder: pe }, { findings: d.findings, text: n.text });
  console.log(`\n${n.id} gold=${n.condition} got=${ranked.slice(0,3).join(' / ')}\n  ${n.text}\n  read: ${[...m.values()].flat().map((x) => (x.polarity === 'absent' ? '-' : '+') + x.featureText).join('; ')}`);
}
console.log(ok, test.notes.length);
