import type { Command } from 'commander';

// Placeholder: filled in by its issue.
export function registerBuildCommand(_program: Command): void {}
