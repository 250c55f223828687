import type { Command } from 'commander';

// Placeholder: filled in by its issue.
export function registerSourceCommands(_program: Command): void {}
