// Which boards the simulator can run, from the installed boards.txt: those whose resolved
// `build.mcu` is the ATmega328P, the only chip avr8js ships peripheral configurations for.
// avr8js's CPU does handle 22-bit program counters and it has port configurations A–L, but its
// timer, USART and ADC configurations carry the ATmega328P's register addresses and interrupt
// vectors (Timer0 overflow: vector 16 at word 0x20; the ATmega2560's is vector 23, avr-libc's
// iom2560.h), so the Mega would need configurations avr8js does not ship: not simulated here.
import type { InstalledPlatforms } from '../../context-providers/arduino/platforms.js';
import { fullFqbn, resolveFqbn, type ResolvedBoard } from '../../context-providers/arduino/resolve.js';
import { SIMULATED_MCU } from '../../context-providers/arduino/simulated-mcu.js';
import { readVariantHeader } from '../../context-providers/arduino/variant-header.js';
import { pinName, type PinNaming } from './inputs.js';
import { readVariantPorts, type PinPort } from './variant-ports.js';

export interface SimulatedBoard {
  fqbn: string;
  /** The FQBN with every menu option written out, to compile with (resolve.ts fullFqbn). */
  buildFqbn: string;
  name: string;
  clockHz: number;
  header: string;
  pins: Array<PinPort & { name: string }>;
  naming: PinNaming;
}

export class NotSimulatableError extends Error {
  constructor(what: string, simulatable: string[]) {
    super(
      `not simulatable: ${what}. The simulator (avr8js) runs ATmega328P boards; installed ones: ${simulatable.join(', ') || 'none'}`,
    );
    this.name = 'NotSimulatableError';
  }
}

export function simulatedBoard(fqbn: string, installed: InstalledPlatforms): SimulatedBoard {
  const board = resolveFqbn(fqbn, installed);
  const mcu = board.expanded('build.mcu');
  if (mcu !== SIMULATED_MCU) {
    throw new NotSimulatableError(`${board.name} (${fqbn}) has build.mcu=${mcu ?? '(none)'}`, simulatableBoards(installed));
  }
  const fCpu = board.expanded('build.f_cpu');
  const clockHz = fCpu ? Number(fCpu.replace(/[uUlL]+$/, '')) : NaN;
  if (!Number.isFinite(clockHz) || clockHz <= 0) {
    throw new NotSimulatableError(`${board.name} (${fqbn}) has no readable build.f_cpu ("${fCpu ?? ''}")`, simulatableBoards(installed));
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
  return { fqbn, buildFqbn: fullFqbn(board), name: board.name, clockHz, header: variant.header, pins: ports.map((p) => ({ ...p, name: pinName(p.pin, naming) })), naming };
}

/** FQBNs (with `cpu=` where the board has that menu) whose build.mcu is the ATmega328P. */
export function simulatableBoards(installed: InstalledPlatforms): string[] {
  const found: string[] = [];
  for (const platform of installed.platforms.values()) {
    for (const definition of platform.load().boards.values()) {
      const base = `${platform.id}:${definition.id}`;
      const cpus = definition.menus.get('cpu');
      const candidates = cpus ? [...cpus.keys()].map((cpu) => `${base}:cpu=${cpu}`) : [base];
      for (const fqbn of candidates) if (mcuOf(fqbn, installed) === SIMULATED_MCU) found.push(fqbn);
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
