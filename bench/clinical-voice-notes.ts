/**
 * Clinical voice on KGs learnt from notes (issue 48 item 2): the KG of the vignette dev sets as
 * notes and the primary-care notes (datasets/notes-pc), built in memory with the build's own
 * stages (bench/lib/notes-kg-memory.ts), and with --real-notes the labelled real notes beside the
 * repo (MTSamples, read only: counts only, no label of theirs is printed). For each KG: every
 * feature's label, every session question and option, and the differences KG of every
 * subcategory (src/query/differences-kg.ts over the snapshot) checked against the voice's forms;
 * features not asked about (no readable label) by vocabulary.
 *
 *   nice -n 5 node --import tsx bench/clinical-voice-notes.ts [--real-notes]
 */
import { parseArgs } from 'node:util';
import type { NormalizedRecord } from '../src/domain/record.js';
import { FollowupModel } from '../src/followups/model.js';
import { buildQuestionCatalogue } from '../src/followups/question-model.js';
import { followupKgFromSnapshot } from '../src/followups/snapshot-kg.js';
import { HashedEmbedder } from '../src/adapters/embeddings/index.js';
import { shippedVoice } from '../src/presentation/shipped-voice.js';
import { differencesKg } from '../src/query/differences-kg.js';
import type { KgSnapshot } from '../src/query/kg-snapshot.js';
import { VoiceAudit } from './lib/clinical-voice-audit.js';
import { buildMemoryKg } from './lib/notes-kg-memory.js';
import { loadNotesSet, NOTES_CORPORA, notesReaders } from './lib/notes-kg-run.js';
import { DEFAULT_REAL_NOTES, loadRealNotes } from './lib/real-notes-data.js';

const { values: a } = parseArgs({ options: { 'real-notes': { type: 'boolean', default: false }, notes: { type: 'string', default: DEFAULT_REAL_NOTES } } });
const log = (s: string) => process.stderr.write(`[clinical-voice-notes] ${s}\n`);

const record = (n: { id: string; condition: string; text: string }, i: number): NormalizedRecord => ({
  id: `notes:${n.id}:${i}`, diagnosis: n.condition, icd10: null, age: null, sex: null, findings: [], initialFindingCode: null, text: '', location: n.id,
  notes: [{ origin: 'text', title: null, text: n.text }],
});

/** The differences KG rows cypher/query/differences-kg.cypher would return, from the snapshot. */
function snapshotGraph(s: KgSnapshot) {
  return {
    read: async (_name: string, params: Record<string, unknown> = {}) => {
      const sub = s.subcategoryIndex.get(String(params.subcategoryId)) ?? -1;
      return [...(s.subcategoryDiseases[sub] ?? [])].map((d) => {
        const m = s.manifestations[d]!;
        return {
          disease: s.diseases[d]!.name, diseaseId: s.diseases[d]!.id, differences: [],
          manifestations: [...m.features].map((f, i) => {
            const node = s.features[f]!;
            return { relation: 'HAS_MANIFESTATION', object: node.text, objectId: node.id, weight: m.prevalence[i]!, kind: node.kind, code: node.code, valueCode: node.valueCode, question: node.question, valueText: node.valueText };
          }),
        };
      });
    },
  };
}

async function audit(name: string, records: NormalizedRecord[], showExamples: boolean): Promise<void> {
  const { vocab, prepare } = await notesReaders();
  const kg = await buildMemoryKg(records, { reader: { vocabulary: vocab.snapshot, lexicon: vocab.lexicon, prepare }, embeddings: new HashedEmbedder() });
  const s = kg.snapshot;
  const voice = shippedVoice();
  const au = new VoiceAudit();
  for (const f of s.features) au.label('feature label', voice.label(f));
  const model = new FollowupModel(followupKgFromSnapshot(s));
  const catalogue = buildQuestionCatalogue(model.features, { counts: model });
  for (const q of catalogue.questions) {
    au.question('session question', q.text);
    if (q.answerType !== 'number' && q.answerType !== 'yes-no') for (const o of q.options) au.label('session question option', o.label);
  }
  const asked = new Set(catalogue.questions.flatMap((q) => q.options.map((o) => o.featureId)));
  const notAsked = new Map<string, number>();
  for (const f of s.features) if (!asked.has(f.id)) notAsked.set(f.vocabulary ?? f.kind, (notAsked.get(f.vocabulary ?? f.kind) ?? 0) + 1);
  for (const sub of s.subcategories) {
    const { triples } = await differencesKg(snapshotGraph(s), { subcategoryId: sub.id, perDisease: 30 });
    au.answer({ followUps: [], differential: [], trace: { differencesKg: triples } } as never);
  }
  au.followUpsPerAnswer.length = 0;
  const sum = au.summary();
  process.stdout.write(`${name}: ${records.length} notes, ${s.features.length} features (${kg.emergent.kept} emergent), ${catalogue.questions.length} session questions; not asked: ${JSON.stringify(Object.fromEntries(notAsked))}\n`);
  process.stdout.write(showExamples ? `${au.report()}\n\n` : `  questions breaking the forms ${sum.questionsBreaking}, labels ${sum.labelsBreaking}, shown manifestations under 30% ${sum.lowManifestations}\n\n`);
}

for (const [i, corpus] of NOTES_CORPORA.entries()) {
  const sets = await Promise.all(corpus.train.map(loadNotesSet));
  await audit(i === 0 ? 'vignette dev sets as notes' : 'notes-pc', sets.flatMap((x) => x.notes).map(record), true);
  log(`corpus ${i + 1} done`);
}
if (a['real-notes']) {
  const real = await loadRealNotes(a.notes!);
  await audit('real notes (labelled MTSamples, counts only)', real.map((n, i) => record({ id: n.id, condition: n.diagnosis, text: n.text }, i)), false);
}
