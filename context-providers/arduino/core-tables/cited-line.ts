// The first line of an installed file that matches, as a citation (a rule the core states in a header).
import { existsSync, readFileSync } from 'node:fs';
import type { SourceRef } from '../../types.js';

export function findLine(file: string, pattern: RegExp): SourceRef | undefined {
  if (!existsSync(file)) return undefined;
  const index = readFileSync(file, 'utf8').split('\n').findIndex((line) => pattern.test(line));
  return index >= 0 ? { file, line: index + 1 } : undefined;
}
