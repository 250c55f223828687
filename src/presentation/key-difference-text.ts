/**
 * A key difference reads "<feature>: 81% in A vs 0% in B, C" (kg-build/key-differences.ts); the
 * clinician reads its feature by the clinical label, the figures kept as built.
 */
import type { VoiceFeature } from './clinical-voice.js';
import { shippedVoice } from './shipped-voice.js';

export function keyDifferenceText(text: string, feature: VoiceFeature | null): string {
  const m = /^(.*?): (\d+% in [\s\S]*)$/.exec(text);
  if (!m) return text;
  return `${shippedVoice().label(feature ?? { text: m[1]!, code: null, valueCode: null })}: ${m[2]}`;
}
