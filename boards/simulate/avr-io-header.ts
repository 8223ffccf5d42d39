// An AVR chip's register addresses, bit numbers, interrupt vectors and memory sizes as avr-libc's
// installed <avr/io.h> gives them for that chip, read by the project's preprocessor the way
// avr-gcc reads it for a `.S` file (`__ASSEMBLER__` makes every register a plain data address:
// avr/sfr_defs.h `_SFR_MEM8(a)` → a, `_SFR_IO8(a)` → a + 0x20). Each value keeps the file and
// line of its #define, so the simulator's chip configuration is cited, never typed in.
import { existsSync } from 'node:fs';
import { join } from '../../platform/path-join.js';
import type { SourceRef } from '../../platform/finding.js';
import { evaluate } from '../../context-providers/arduino/c-expression.js';
import { expandMacros, preprocess, type Macro } from '../../context-providers/arduino/preprocessor.js';
import { readRegularFileSync } from '../../platform/regular-file.js';
import { avrDeviceMacro } from '../../context-providers/arduino/variant-header.js';

export interface HeaderValue {
  value: number;
  source: SourceRef;
}

export class AvrHeaderError extends Error {
  constructor(mcu: string, problem: string) {
    super(`${mcu}: ${problem}; install avr-libc (Debian: apt install avr-libc) or the board's toolchain so the simulator can read the chip's registers`);
    this.name = 'AvrHeaderError';
  }
}

export class AvrIoHeader {
  /** Register macros in the order of their lines, per file, to find the register a bit follows. */
  private readonly registers: Array<{ name: string; file: string; line: number }>;

  constructor(
    readonly mcu: string,
    /** The device header avr/io.h chose (avr/iom2560.h). */
    readonly deviceHeader: string,
    private readonly macros: ReadonlyMap<string, Macro>,
  ) {
    this.registers = [...macros.values()]
      .filter((macro) => !macro.params && macro.source?.file === deviceHeader && /^_SFR_(IO|MEM)(8|16)$/.test(macro.body[0]?.text ?? ''))
      .map((macro) => ({ name: macro.name, file: macro.source!.file, line: macro.source!.line ?? 0 }))
      .sort((a, b) => a.line - b.line);
  }

  has(name: string): boolean {
    return this.macros.has(name);
  }

  /** A register's data-space address, a bit number or a constant (RAMEND), fully expanded. */
  value(name: string): HeaderValue {
    const macro = this.macro(name);
    const result = evaluate(expandMacros(macro.body, this.macros), { identifier: () => undefined, unknownIsZero: false });
    if (!result.ok) throw new AvrHeaderError(this.mcu, `${cite(macro)}: ${name} is not a number (${result.reason})`);
    return { value: Number(result.value), source: macro.source! };
  }

  /** The number of an interrupt vector: `#define TIMER0_OVF_vect _VECTOR(23)` → 23. */
  vector(name: string): HeaderValue {
    const macro = this.macro(name);
    const body = macro.body;
    if (body[0]?.text !== '_VECTOR' || body[1]?.text !== '(' || body.at(-1)?.text !== ')') {
      throw new AvrHeaderError(this.mcu, `${cite(macro)}: ${name} is not _VECTOR(n)`);
    }
    const result = evaluate(expandMacros(body.slice(2, -1), this.macros), { identifier: () => undefined, unknownIsZero: false });
    if (!result.ok) throw new AvrHeaderError(this.mcu, `${cite(macro)}: the vector number of ${name} is not a number`);
    return { value: Number(result.value), source: macro.source! };
  }

  /** How many vectors the chip has: one more than the highest `_VECTOR(n)` of a `*_vect` name. */
  vectorCount(): number {
    let highest = -1;
    for (const macro of this.macros.values()) {
      if (macro.params || !macro.name.endsWith('_vect') || macro.source?.file !== this.deviceHeader) continue;
      highest = Math.max(highest, this.vector(macro.name).value);
    }
    if (highest < 0) throw new AvrHeaderError(this.mcu, `${this.deviceHeader} defines no interrupt vectors`);
    return highest + 1;
  }

  /** The register whose #define a bit's #define follows (the headers list each register's bits after it). */
  registerOf(bit: string): string {
    const source = this.macro(bit).source!;
    const before = this.registers.filter((register) => register.file === source.file && register.line < (source.line ?? 0));
    const register = before.at(-1);
    if (!register) throw new AvrHeaderError(this.mcu, `${source.file}:${source.line}: no register is defined before the bit ${bit}`);
    return register.name;
  }

  private macro(name: string): Macro {
    const macro = this.macros.get(name);
    if (!macro || macro.params || !macro.source) throw new AvrHeaderError(this.mcu, `${this.deviceHeader} defines no ${name}`);
    return macro;
  }
}

function cite(macro: Macro): string {
  return `${macro.source?.file}:${macro.source?.line}`;
}

/**
 * Reads `avr/io.h` from the first of `includeDirs` that has it, for `mcu` (build.mcu, e.g.
 * `atmega2560`) defined as avr-gcc -mmcu=atmega2560 defines it (__AVR_ATmega2560__).
 */
export function readAvrIoHeader(mcu: string, includeDirs: string[]): AvrIoHeader {
  const dir = includeDirs.find((candidate) => existsSync(join(candidate, 'avr', 'io.h')));
  if (!dir) throw new AvrHeaderError(mcu, `no avr/io.h in ${includeDirs.join(', ') || '(no toolchain include folder)'}`);
  const ioH = join(dir, 'avr', 'io.h');
  const chipMacro = avrDeviceMacro(mcu);
  if (!new RegExp(`\\b${chipMacro}\\b`).test(readRegularFileSync(ioH, 'utf8'))) throw new AvrHeaderError(mcu, `${ioH} does not know this chip (no ${chipMacro} there)`);
  const avrDir = join(dir, 'avr');
  const result = preprocess([ioH], {
    defines: { __ASSEMBLER__: '1', [chipMacro]: '1' },
    includeDirs: [dir],
    followSystem: true,
    follow: (path) => path.startsWith(`${avrDir}/`),
  });
  const deviceInclude = result.includes.find((include) => include.file === ioH && /^avr\/io[^/]*\.h$/.test(include.header) && include.header !== 'avr/io.h' && !/^avr\/(sfr_defs|portpins|common|version|xmega|fuse|lock)\.h$/.test(include.header));
  if (!deviceInclude) throw new AvrHeaderError(mcu, `${ioH} includes no device header for ${chipMacro}`);
  return new AvrIoHeader(mcu, join(dir, deviceInclude.header), result.macros);
}

