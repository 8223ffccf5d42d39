// The RP2040/RP2350 facts of boards/data/rp2-chips.json, by build.chip, each with the line of the
// data file that cites its datasheet section or pico-sdk line.
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { join } from '../../../platform/path-join.js';
import type { SourceRef } from '../../types.js';
import type { ResolvedBoard } from '../../../platform/arduino/resolve.js';
import { dataFile, dataSource, lazily } from '../../../platform/data-files.js';

/** Where boards/data/rp2-chips.json is (found when first asked for: only an RP2 board's context needs it). */
export const rp2ChipsFile = (): string => dataFile('rp2-chips.json');

export interface Rp2Package {
  gpioCount: number;
  adcFirstGpio: number;
  adcInputs: number;
  gpioSource: SourceRef;
  adcSource: SourceRef;
}

export interface Rp2Chip {
  /** build.chip: `rp2040`, `rp2350`, `rp2350-riscv`. */
  id: string;
  name: string;
  /** The chip macros arduino-pico passes in lib/<chip>/platform_def.txt. */
  defines: Record<string, string>;
  definesSource: SourceRef;
  /** `single` for RP2040; `A` (30 GPIOs) and `B` (48 GPIOs) for RP2350. */
  packages: Record<string, Rp2Package>;
  pwmSlices: number;
  pwmSource: SourceRef;
  pwmSliceRule: SourceRef;
  uarts: number;
  uartSource: SourceRef;
}

interface RawPackage { gpioCount: number; adcFirstGpio: number; adcInputs: number }
interface RawChip {
  sameAs?: string;
  name?: string;
  defines: Record<string, string>;
  packages?: Record<string, RawPackage>;
  pwmSlices?: number;
  uarts?: number;
}

/** The CYW43 WiFi chip's GPIOs (Pico W and kin): Arduino pins from `firstPin`. */
export interface Cyw43Pins {
  firstPin: number;
  count: number;
  source: SourceRef;
}

let chips: Map<string, Rp2Chip> | undefined;
let cyw43: Cyw43Pins | undefined;

interface RawFile {
  cyw43: { firstPin: number; count: number };
  chips: Record<string, RawChip>;
}

// Read when an RP2 board first needs it: one read gives the facts and the line of each key.
const chipFile = lazily((): { data: RawFile; lines: Map<string, number> } => {
  const { data, text } = dataSource<RawFile>('rp2-chips.json');
  return { data, lines: keyLines(text) };
});

export function cyw43Pins(): Cyw43Pins {
  if (!cyw43) {
    const { data, lines } = chipFile();
    cyw43 = { firstPin: data.cyw43.firstPin, count: data.cyw43.count, source: { file: rp2ChipsFile(), line: lines.get('cyw43.source') } };
  }
  return cyw43;
}

/** arduino-pico's core (earlephilhower/arduino-pico cores/rp2040), as its SerialUART.h tells it from other RP2040 cores. */
export function isPicoCore(board: ResolvedBoard): boolean {
  return basename(board.corePath) === 'rp2040' && existsSync(join(board.corePath, 'SerialUART.h'));
}

/**
 * The chip macros (PICO_RP2040, PICO_RP2350) an arduino-pico board's compile flags lack: its recipe
 * takes them from `@{runtime.platform.path}/lib/{build.chip}/platform_def.txt`, and where that file
 * is not installed they are the ones it sets upstream, from the data file. Every reader of the
 * board's -D flags (compileDefines: the variant header, the core's tables, library headers) then
 * reads the headers under the macro gcc would have. Undefined for other boards, and when the flags
 * have every one.
 */
export function picoChipStandIn(board: ResolvedBoard, defines: Readonly<Record<string, string>>): Record<string, string> | undefined {
  if (!isPicoCore(board)) return undefined;
  const chip = rp2Chip(board.expanded('build.chip'));
  const missing = Object.entries(chip?.defines ?? {}).filter(([name]) => !Object.hasOwn(defines, name));
  return missing.length > 0 ? Object.fromEntries(missing) : undefined;
}

export function rp2Chip(id: string | undefined): Rp2Chip | undefined {
  if (!id) return undefined;
  chips ??= loadChips();
  return chips.get(id);
}

function loadChips(): Map<string, Rp2Chip> {
  const { data, lines } = chipFile();
  const raw = data.chips;
  const at = (path: string): SourceRef => ({ file: rp2ChipsFile(), line: lines.get(path) });
  const result = new Map<string, Rp2Chip>();
  for (const [id, entry] of Object.entries(raw)) {
    const baseId = entry.sameAs ?? id;
    const base = raw[baseId];
    const packages: Record<string, Rp2Package> = {};
    for (const [name, pkg] of Object.entries(base.packages ?? {})) {
      packages[name] = { ...pkg, gpioSource: at(`chips.${baseId}.packages.${name}.gpioSource`), adcSource: at(`chips.${baseId}.packages.${name}.adcSource`) };
    }
    result.set(id, {
      id,
      name: base.name ?? id,
      defines: entry.defines,
      definesSource: at(`chips.${id}.definesSource`),
      packages,
      pwmSlices: base.pwmSlices ?? 0,
      pwmSource: at(`chips.${baseId}.pwmSource`),
      pwmSliceRule: at(`chips.${baseId}.pwmSliceRule`),
      uarts: base.uarts ?? 0,
      uartSource: at(`chips.${baseId}.uartSource`),
    });
  }
  return result;
}

/** The brackets of a line whose strings are emptied, found natively (a first context reads this file interpreted). */
const BRACKETS = /[[\]{}]/g;

/** `a.b.c` → line of that key in a JSON text, however it is indented (tsc re-indents copies). */
export function keyLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  const open: string[] = [];
  text.split('\n').forEach((line, index) => {
    const key = /^\s*"([^"]+)"\s*:/.exec(line)?.[1];
    if (key !== undefined) lines.set([...open, key].filter(Boolean).join('.'), index + 1);
    let first = true;
    const plain = line.replace(/"(?:[^"\\]|\\.)*"/g, '""');
    BRACKETS.lastIndex = 0;
    for (let match = BRACKETS.exec(plain); match; match = BRACKETS.exec(plain)) {
      const char = match[0];
      if (char === '{' || char === '[') {
        open.push(first && key !== undefined ? key : '');
        first = false;
      } else if (char === '}' || char === ']') {
        open.pop();
      }
    }
  });
  return lines;
}

/** The PWM slice and channel of a GPIO (pico-sdk PWM_GPIO_SLICE_NUM, cited in the data file). */
export function pwmSliceOf(gpio: number): { slice: number; channel: 'A' | 'B' } {
  const slice = gpio < 32 ? (gpio >> 1) & 7 : 8 + ((gpio >> 1) & 3);
  return { slice, channel: gpio % 2 === 0 ? 'A' : 'B' };
}
