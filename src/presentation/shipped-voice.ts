/**
 * The shipped clinical voice (datasets/lexicon/clinical-voice.json), for the query path, which has
 * no loader step: validated at first use, and a broken shipped file throws (a release bug).
 */
import data from '../../datasets/lexicon/clinical-voice.json' with { type: 'json' };
import { ClinicalVoice } from './clinical-voice.js';
import { parseVoiceData } from './voice-data.js';

let shipped: ClinicalVoice | null = null;

export function shippedVoice(): ClinicalVoice {
  if (shipped) return shipped;
  const r = parseVoiceData(data, 'datasets/lexicon/clinical-voice.json');
  if (!r.ok) throw r.error;
  return (shipped = new ClinicalVoice(r.value));
}
