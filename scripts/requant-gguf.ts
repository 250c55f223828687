/**
 * Writes a GGUF's Q4_1 tensors as Q8_0, the rest as it is (src/adapters/llm/gguf-requant.ts):
 * llama.cpp evaluates prompts on Q8_0 weights with its repacked AVX2 kernels, on Q4_1 without.
 * scripts/fetch-smollm2.sh runs it once on the shipped model; usable on any Q4_1 GGUF.
 *   node --import tsx scripts/requant-gguf.ts IN.gguf OUT.gguf
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { requantQ41ToQ80 } from '../src/adapters/llm/gguf-requant.js';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  process.stderr.write('usage: node --import tsx scripts/requant-gguf.ts IN.gguf OUT.gguf\n');
  process.exit(2);
}
const bytes = requantQ41ToQ80(await readFile(input));
// Written beside, then renamed: an interrupted run never leaves a half-written model under OUT.
await writeFile(`${output}.partial`, bytes);
await rename(`${output}.partial`, output);
process.stderr.write(`${input} -> ${output} (${(bytes.length / 1e6).toFixed(1)} MB)\n`);
