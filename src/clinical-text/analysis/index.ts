/** Clinical text analysis (issue 17): the matcher's entry point. */
export { analyzeClinicalText } from './analyze.js';
export type { Assertion, Demographics, Experiencer, ExtractedValues, Span, Temporality, TextAnalysis, TextFinding } from './types.js';
