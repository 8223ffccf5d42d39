// Which boards the simulator can run, from the installed boards.txt: those whose resolved
// `build.mcu` is one of simulatedMcus() — the ATmega328P, whose peripheral configurations avr8js
// ships, and the ATmega2560, whose configurations mcu-config.ts builds from avr-libc's header
// next to the board's compiler (avr8js's own carry the 328P's addresses and vectors: Timer0
// overflow is vector 16 there, vector 23 in iom2560.h).
import type { InstalledPlatforms } from '../../platform/arduino/platforms.js';
import { fullFqbn, resolveFqbn, type ResolvedBoard } from '../../platform/arduino/resolve.js';
import { toolchainIncludeDirs } from '../../context-providers/arduino/includes.js';
import { isSimulatedMcu, simulatedMcus } from '../../context-providers/arduino/simulated-mcu.js';
import { readVariantHeader } from '../../context-providers/arduino/variant-header.js';
import type { PinNaming } from '../../platform/circuit/board-part.js';
import { pinName } from './inputs.js';
import { AvrHeaderError } from './avr-io-header.js';
import { mcuConfig, type McuConfig } from './mcu-config.js';
import { readVariantPorts, type PinPort } from './variant-ports.js';

export interface SimulatedBoard {
  fqbn: string;
  /** The FQBN with every menu option written out, to compile with (resolve.ts fullFqbn). */
  buildFqbn: string;
  name: string;
  clockHz: number;
  /** The chip's peripheral configuration for avr8js. */
  mcu: McuConfig;
  header: string;
  pins: Array<PinPort & { name: string }>;
  naming: PinNaming;
}

export class NotSimulatableError extends Error {
  constructor(what: string, simulatable: string[]) {
    super(
      `not simulatable: ${what}. The simulator (avr8js) runs ${simulatedMcus().map(chipName).join(' and ')} boards; installed ones: ${simulatable.join(', ') || 'none'}`,
    );
    this.name = 'NotSimulatableError';
  }
}

export function simulatedBoard(fqbn: string, installed: InstalledPlatforms): SimulatedBoard {
  const board = resolveFqbn(fqbn, installed);
  const mcu = board.expanded('build.mcu');
  if (!isSimulatedMcu(mcu)) {
    throw new NotSimulatableError(`${board.name} (${fqbn}) has build.mcu=${mcu ?? '(none)'}`, simulatableBoards(installed));
  }
  const fCpu = board.expanded('build.f_cpu');
  const clockHz = fCpu ? Number(fCpu.replace(/[uUlL]+$/, '')) : NaN;
  if (!Number.isFinite(clockHz) || clockHz <= 0) {
    throw new NotSimulatableError(`${board.name} (${fqbn}) has no readable build.f_cpu ("${fCpu ?? ''}")`, simulatableBoards(installed));
  }
  let chip: McuConfig;
  try {
    chip = mcuConfig(mcu!, toolchainIncludeDirs(board));
  } catch (error) {
    if (!(error instanceof AvrHeaderError)) throw error;
    throw new NotSimulatableError(`${board.name} (${fqbn}): ${error.message}`, simulatableBoards(installed));
  }
  const variant = readVariantHeader(board);
  if (!variant.header) throw new NotSimulatableError(`${board.name} (${fqbn}) has no variant pin header`, simulatableBoards(installed));
  const ports = readVariantPorts([variant.header, ...variant.files.filter((file) => file !== variant.header)]);
  const analogPins = new Map<string, number>();
  for (let i = 0; i < 16; i++) {
    const pin = variant.evaluate(`A${i}`);
    if (pin === undefined) break;
    analogPins.set(`A${i}`, pin);
  }
  const naming: PinNaming = { pinCount: ports.length, analogPins };
  return { fqbn, buildFqbn: fullFqbn(board), name: board.name, clockHz, mcu: chip, header: variant.header, pins: ports.map((p) => ({ ...p, name: pinName(p.pin, naming) })), naming };
}

/** FQBNs (with `cpu=` where the board has that menu) whose build.mcu the simulator runs. */
export function simulatableBoards(installed: InstalledPlatforms): string[] {
  const found: string[] = [];
  for (const platform of installed.platforms.values()) {
    for (const definition of platform.load().boards.values()) {
      const base = `${platform.id}:${definition.id}`;
      const cpus = definition.menus.get('cpu');
      const candidates = cpus ? [...cpus.keys()].map((cpu) => `${base}:cpu=${cpu}`) : [base];
      for (const fqbn of candidates) if (isSimulatedMcu(mcuOf(fqbn, installed))) found.push(fqbn);
    }
  }
  return found;
}

function mcuOf(fqbn: string, installed: InstalledPlatforms): string | undefined {
  let board: ResolvedBoard;
  try {
    board = resolveFqbn(fqbn, installed);
  } catch {
    return undefined;
  }
  return board.expanded('build.mcu');
}

/** `atmega2560` → `ATmega2560`, `atmega328p` → `ATmega328P`, as the datasheets write them. */
function chipName(mcu: string): string {
  return mcu.replace(/^atmega(\d+)(.*)$/, (_, digits: string, rest: string) => `ATmega${digits}${rest.toUpperCase()}`);
}
