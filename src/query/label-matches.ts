import type { FeatureMatch } from './contracts.js';
import type { KgSnapshot } from './kg-snapshot.js';
import { shippedVoice } from '../presentation/shipped-voice.js';

/**
 * The trace's matches with each feature's clinical label (issue 48 item 2). `featureText` is the
 * feature's text as its source wrote it (for DDXPlus the patient questionnaire: "Do you have pain
 * that is increased when you breathe in deeply? yes", "pain location: lower chest"), which the
 * copilot's "matched graph features" and `dxgraph ask` showed; they show `featureLabel` now
 * ("Pain worse on deep breathing", "Pain at lower chest").
 */
export function labelMatches(s: KgSnapshot, matches: readonly FeatureMatch[]): FeatureMatch[] {
  const voice = shippedVoice();
  return matches.map((m) => {
    const f = s.featureIndex.get(m.featureId);
    return { ...m, featureLabel: f === undefined ? m.featureText : voice.label(s.features[f]!) };
  });
}
