import type { Finding } from '../src/domain/record.js';
import { normalizeName, stableHash } from './text.js';

import { EMERGENT_CANDIDATE } from '../src/clinical-text/concepts/tiers.js';
export { EMERGENT_CANDIDATE };

/**
 * Identity of an EHR feature (E_L4d node). Coded findings are identified by their source
 * code and value (DDXPlus E_54 / V_179; numeric answers keep one feature per (code, value));
 * free-text findings by their normalised text. The node id is a hash of that key, so it is
 * stable across builds.
 */
export function featureKey(f: Finding): string {
  if (f.code !== null) return `c:${f.code}=${f.valueCode ?? ''}`;
  // A candidate emergent phrase of a note (its text is the stem key): grouped after the scan.
  if (f.concept?.vocabulary === EMERGENT_CANDIDATE) return `e:${f.text}`;
  return `t:${normalizeName(f.text)}`;
}

export const featureIdOf = (key: string): string => `feat:${stableHash(key)}`;

export const isFreeTextKey = (key: string): boolean => key.startsWith('t:');
