// Every boards.txt installed under a folder: Debian's AVR platform, the fixtures' 32-bit
// platforms, stm32duino and esp8266. The tests that read them all find them here.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fixture } from './fixtures.js';

export function boardsFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    // Symbolic links are not followed (Debian's hardware/tools/avr/bin/X11 links to itself).
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.name === 'boards.txt' && entry.isFile()) found.push(path);
      else if (entry.isDirectory()) walk(path);
    }
  };
  walk(root);
  return found;
}

/** Debian's and the fixtures' boards.txt files. */
export function installedBoardsFiles(): string[] {
  return [...boardsFiles('/usr/share/arduino/hardware'), ...boardsFiles(fixture('arduino'))];
}
