// Test helpers shared by the core-table tests: the 32-bit fixture platforms, and the text of a cited line.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readCoreFacts, type CoreFacts, type CorePin } from '../../../../context-providers/arduino/core-tables/index.js';
import { discoverPlatforms, type InstalledPlatforms } from '../../../../platform/arduino/platforms.js';
import { resolveFqbn, type ResolvedBoard } from '../../../../platform/arduino/resolve.js';
import { readVariantHeader } from '../../../../context-providers/arduino/variant-header.js';
import type { SourceRef } from '../../../../context-providers/types.js';
import { FIXTURES, TMP } from '../paths.js';

export const DATA_DIR_32BIT = resolve(FIXTURES, 'data_dir_32bit');

export function loadPlatforms32(): Promise<InstalledPlatforms> {
  return discoverPlatforms({ dataDirs: [DATA_DIR_32BIT], sketchbookDirs: [], includeDebian: false, home: TMP });
}

export function factsOf(fqbn: string, installed: InstalledPlatforms): { board: ResolvedBoard; facts: CoreFacts | undefined } {
  const board = resolveFqbn(fqbn, installed);
  return { board, facts: readCoreFacts(board, readVariantHeader(board)) };
}

const files = new Map<string, string[]>();
/** The text of the line a fact cites, without surrounding spaces. */
export function citedLine(source: SourceRef | undefined): string {
  if (!source?.line) throw new Error(`no file:line cited (${JSON.stringify(source)})`);
  let lines = files.get(source.file);
  if (!lines) files.set(source.file, (lines = readFileSync(source.file, 'utf8').split('\n')));
  return lines[source.line - 1].trim();
}

/** The nearest `name[] = {` opening at or above the cited line: which array the line belongs to. */
export function enclosingArray(source: SourceRef): string | undefined {
  citedLine(source);
  const lines = files.get(source.file)!;
  for (let index = source.line! - 1; index >= 0; index--) {
    const match = /(\w+)\s*\[\s*\]\s*=\s*\{/.exec(lines[index]);
    if (match) return match[1];
  }
  return undefined;
}

/** The core facts of a board that must be read by a core reader. */
export function requireFacts(fqbn: string, installed: InstalledPlatforms): CoreFacts {
  const { facts } = factsOf(fqbn, installed);
  if (!facts) throw new Error(`${fqbn}: no core reader recognised the board`);
  return facts;
}

export const pinOf = (facts: CoreFacts, number: number): CorePin => {
  const pin = facts.pins.find((p) => p.number === number);
  if (!pin) throw new Error(`pin ${number} is not in the table`);
  return pin;
};

// The rows of g_APinDescription in the variant.cpp a fact cites, by pin number.
export function samdRowLines(file: string): number[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.findIndex((line) => /g_APinDescription\[\]\s*=/.test(line));
  const rows: number[] = [];
  // The tables drawn in comments use | and +, never a `{ PORTx` at the start of a line.
  for (let index = start + 1; index < lines.length && !/^\s*\};/.test(lines[index]); index++) {
    if (/^\s*\{\s*(PORT[A-C]|NOT_A_PORT)/.test(lines[index])) rows.push(index + 1);
  }
  return rows;
}
