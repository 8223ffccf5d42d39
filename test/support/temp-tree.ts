// A temporary folder holding the given files (relative paths), each a small sketch's code.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function tempTree(files: string[], prefix = 'bb-tree-'): string {
  const root = mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const file of files) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), 'void setup() { pinMode(13, OUTPUT); }\nvoid loop() {}\n');
  }
  return root;
}
