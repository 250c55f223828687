export { hashString, seededRandom } from '../util/rng.js';
