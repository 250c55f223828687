/** De-identification of clinical notes at ingest (issue 24): Safe Harbor identifiers found by rules given as data. */
export { PLACEHOLDER, scrubIdentifiers, type ScrubResult } from './scrub-identifiers.js';
export {
  defaultIdentifierRulesPath,
  IDENTIFIER_KINDS,
  loadIdentifierRules,
  parseIdentifierRules,
  type IdentifierKind,
  type IdentifierPattern,
  type IdentifierRules,
} from './identifier-rules.js';
