import type { Command } from 'commander';

// Placeholder: filled in by its issue.
export function registerQueryCommands(_program: Command): void {}
