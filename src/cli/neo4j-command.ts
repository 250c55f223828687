import type { Command } from 'commander';

// Placeholder: filled in by its issue.
export function registerNeo4jCommand(_program: Command): void {}
