// Small sketches written to disk and run through the whole Arduino context (includes, the
// sketch check, the core's own checks), on Debian's AVR boards or the 32-bit fixture platforms
// with the fixture sketchbook's Servo library.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createArduinoProvider } from '../../../context-providers/arduino/provider.js';
import type { Finding, HardwareContext } from '../../../context-providers/types.js';
import { DATA_DIR_32BIT, FIXTURES, TMP } from './paths.js';

export const SKETCHES = join(TMP, 'sketch-findings');
const SKETCHBOOK = join(FIXTURES, 'sketchbook');

type Provider = ReturnType<typeof createArduinoProvider>;
let providers: { avr: Provider; boards32: Provider } | undefined;

/** Writes the sketch's files (the first is `<name>.ino`) and returns its context on the board. */
export async function sketchContext(name: string, board: string, files: Array<[string, string]>): Promise<HardwareContext> {
  providers ??= {
    avr: createArduinoProvider({ dataDirs: [], sketchbookDirs: [SKETCHBOOK], home: TMP }),
    boards32: createArduinoProvider({ dataDirs: [DATA_DIR_32BIT], sketchbookDirs: [SKETCHBOOK], includeDebian: false, home: TMP }),
  };
  const dir = join(SKETCHES, name);
  rmSync(dir, { recursive: true, force: true });
  for (const [file, text] of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  const provider = board.startsWith('arduino:avr:') ? providers.avr : providers.boards32;
  const project = await provider.detect(dir);
  if (!project) throw new Error(`${dir} is not a sketch`);
  return provider.load(project, { board });
}

export async function findings(name: string, board: string, files: Array<[string, string]>): Promise<Finding[]> {
  return (await sketchContext(name, board, files)).findings;
}

export const sketch = (name: string, text: string): Array<[string, string]> => [[`${name}.ino`, text]];

/** `line severity code` of the ERRORs and WARNINGs (or the severities given). */
export const shown = (list: Finding[], severities = ['error', 'warning']): string[] => list.filter((finding) => severities.includes(finding.severity)).map((finding) => `${finding.line} ${finding.severity} ${finding.code}`);
