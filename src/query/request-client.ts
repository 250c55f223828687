/**
 * The client (admission.ts's key: the API key's digest, else the address) whose request the
 * current async context serves. Admission runs the admitted request inside it, and the diagnose
 * pool reads it to put a client's concurrent jobs on its background lane (pool-lanes.ts).
 * Why a context rather than a parameter: diagnose is reached from the diagnose route, a
 * session's first turn and CDS Hooks, through ports that have no notion of clients; the lane
 * is a scheduling hint, and without a client (CLI, tests) a job is simply foreground.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export const requestClient = new AsyncLocalStorage<string>();
