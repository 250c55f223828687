// Setup step 7 (scripts/setup.sh): node-llama-cpp's prebuilt CPU binary loads on this machine,
// with building and downloading turned off, exactly as src/adapters/llm/llama-engine.ts opens it.
// A file, not `node -e`: the runtime tests its binary in a child process started with this
// process's flags, and `--input-type` breaks that child.
import { getLlama, LlamaLogLevel } from 'node-llama-cpp';

const llama = await getLlama({ gpu: false, build: 'never', usePrebuiltBinaries: true, skipDownload: true, progressLogs: false, logLevel: LlamaLogLevel.error });
await llama.dispose();
