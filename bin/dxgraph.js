#!/usr/bin/env node
// The CLI runs the TypeScript sources through tsx's loader so there is one code path
// (no stale dist/ build to drift from src/).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
