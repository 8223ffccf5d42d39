// What Arduino IDE 2.x knows that the files alone may not say: the build properties it
// compiles with (arduino-cli `board details`, options applied) and its last compile (flash
// and RAM used, the libraries it linked). The provider resolves the board from the files
// as always, then lets the IDE's values win where they differ, and says so.
import { isAbsolute } from 'node:path';
import type { ArduinoIdeState, ContextNote, HardwareContext, SourceRef } from '../types.js';
import { parseFqbn } from '../../platform/arduino/fqbn.js';
import type { ResolvedBoard } from '../../platform/arduino/resolve.js';
import type { BuildSize } from './sketch-check.js';

export const IDE_BOARD_DETAILS: SourceRef = { file: 'Arduino IDE board details' };
export const IDE_LAST_COMPILE: SourceRef = { file: 'Arduino IDE last compile' };

// The facts the context states; recipes and paths differ between machines by design.
const COMPARED_KEYS = ['build.mcu', 'build.f_cpu', 'build.board', 'build.core', 'build.variant', 'upload.tool', 'upload.protocol', 'upload.speed', 'upload.maximum_size', 'upload.maximum_data_size'];

/** The IDE's properties apply only to the board they were fetched for (the IDE sends the FQBN before the details). */
export function ideBuildProperties(ide: ArduinoIdeState | undefined, board: ResolvedBoard): Record<string, string> | undefined {
  if (!ide?.buildProperties || !ide.fqbn) return undefined;
  const parsed = parseFqbn(ide.fqbn);
  if (!parsed.ok) return undefined;
  const { vendor, architecture, boardId } = parsed.fqbn;
  return vendor === board.vendor && architecture === board.architecture && boardId === board.boardId ? ide.buildProperties : undefined;
}

/**
 * Overrides the resolved board's facts with the IDE's where they differ (a newer platform
 * than the one found on disk, a boards.local.txt the IDE sees and we do not). Returns a
 * note naming each difference, or nothing when the files and the IDE agree.
 */
export function applyIdeProperties(board: ResolvedBoard, properties: Record<string, string>): ContextNote | undefined {
  const differences: string[] = [];
  for (const key of COMPARED_KEYS) {
    const theirs = properties[key];
    if (theirs === undefined) continue;
    const ours = board.expanded(key);
    if (ours === theirs) continue;
    differences.push(`${key} = ${theirs} (the files say ${ours === undefined ? 'nothing' : ours})`);
    board.properties.set(key, theirs);
    board.sources.set(key, IDE_BOARD_DETAILS);
  }
  if (differences.length === 0) return undefined;
  return {
    topic: 'Arduino IDE',
    text: `the IDE builds with values that differ from the installed files; the IDE's are used: ${differences.join('; ')}`,
    source: IDE_BOARD_DETAILS,
  };
}

/** Flash (`text`) and RAM (`data`) of the IDE's last compile, as arduino-cli's size recipe measured them. */
export function lastCompileSize(ide: ArduinoIdeState | undefined): BuildSize | undefined {
  const sections = ide?.lastCompile?.sections ?? [];
  const flash = sections.find((section) => section.name === 'text');
  const ram = sections.find((section) => section.name === 'data');
  return flash ? { flashBytes: flash.size, ramBytes: ram?.size ?? 0 } : undefined;
}

/** The last compile as a note, and its build folder and libraries as folders the agent may read. */
export function addLastCompile(context: HardwareContext, ide: ArduinoIdeState | undefined): void {
  const compile = ide?.lastCompile;
  if (!compile) return;
  const parts: string[] = [];
  for (const section of compile.sections) {
    const what = section.name === 'text' ? 'flash' : section.name === 'data' ? 'RAM' : section.name;
    parts.push(`${what} ${section.size}${section.maxSize > 0 ? ` of ${section.maxSize} bytes (${Math.round((section.size / section.maxSize) * 100)}%)` : ' bytes'}`);
  }
  if (compile.libraries.length > 0) parts.push(`libraries linked: ${compile.libraries.map((library) => `${library.name}${library.version ? ` ${library.version}` : ''}`).join(', ')}`);
  if (compile.platform) parts.push(`built with ${compile.platform.id}${compile.platform.version ? ` ${compile.platform.version}` : ''}`);
  if (parts.length > 0) (context.notes ??= []).push({ topic: 'Last compile in the IDE', text: parts.join('; '), source: IDE_LAST_COMPILE });
  const readable = [compile.buildPath, ...compile.libraries.map((library) => library.installDir)].filter((dir): dir is string => typeof dir === 'string' && isAbsolute(dir));
  context.readOnlyRoots = [...new Set([...context.readOnlyRoots, ...readable])];
}
