// The ESP32 findings of a sketch as the full check gives them (sketch-check.ts builds the
// CoreSketchView and calls the reader's check): only the `esp32-*` codes, so these tests state
// the ESP32 rules and the generic checks keep their own tests.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { includeDirectives } from '../../../../context-providers/arduino/includes.js';
import { buildPinMap } from '../../../../context-providers/arduino/pin-map.js';
import type { ResolvedBoard } from '../../../../platform/arduino/resolve.js';
import { checkSketch } from '../../../../context-providers/arduino/sketch-check.js';
import type { Finding } from '../../../../context-providers/types.js';

export function esp32Findings(file: string, board: ResolvedBoard): Finding[] {
  const includes = includeDirectives(file, readFileSync(file, 'utf8')).map((include) => include.header);
  return checkSketch([file], dirname(file), board, buildPinMap(board), includes).filter((finding) => finding.code.startsWith('esp32-'));
}
