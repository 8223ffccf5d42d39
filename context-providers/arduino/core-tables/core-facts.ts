// What a 32-bit core's own tables say about a board, beyond the variant header's macros: per-pin
// PWM (with its timer or slice), analog and DAC channels, interrupt lines, bus and UART roles, the
// serial ports with their default pins, pins that share a frequency, and the core's own rules.
// Each core has one reader (renesas.ts, samd.ts, …); pin-map.ts merges what it returns.
import type { Bus, ContextNote, Finding, PinCapability, SourceRef } from '../../types.js';
import type { Token } from '../c-tokens.js';
import type { ResolvedBoard } from '../../../platform/arduino/resolve.js';
import type { VariantHeader } from '../variant-header.js';

/**
 * A capability is known from a table (cited), or unknown with the reason; never "none" by default.
 * `api`: the calls that use it when they are not Arduino's own (LEDC on an ESP32 core without analogWrite).
 */
export type Knowledge = { known: true; source?: SourceRef; api?: string } | { known: false; reason: string };

export interface CorePin {
  /** The Arduino pin number the sketch passes to pinMode/analogWrite. */
  number: number;
  /** Further names: the chip's port pin (`P104`, `PA05`, `GPIO26`). */
  names?: string[];
  pwm?: { timer: string; channel?: string; source: SourceRef };
  /** `input` is the A<n> number when the pin has one; `channel` is the ADC's own (`ADC0 AIN4`). */
  analog?: { input?: number; channel: string; source: SourceRef };
  dac?: { channel: string; source: SourceRef };
  /** `number` is what digitalPinToInterrupt gives (the core's attachInterrupt argument). */
  interrupt?: { number: number; line?: string; source: SourceRef };
  /** Bus and UART roles: `{ fn: 'Serial1 TX', capability: 'uart' }`, `{ fn: 'I2C SDA', capability: 'i2c' }`. */
  functions?: Array<{ fn: string; capability: PinCapability; source?: SourceRef }>;
  /** Chip traps of this pin: input-only, flash/PSRAM, strapping, touch. */
  traps?: Array<{ code: string; text: string; source: SourceRef }>;
}

export interface CoreSerialPort {
  /** The object a sketch uses: `Serial`, `Serial1`, `SerialUSB`. */
  name: string;
  kind: 'uart' | 'usb';
  pins?: { TX?: number; RX?: number };
  source?: SourceRef;
}

export interface CoreFacts {
  /** Which core's rules these are: `renesas`, `samd`, `mbed`, `rp2040`, `stm32`, `esp32`. */
  core: string;
  /** Every pin the core's table has, including analog-only pins past NUM_DIGITAL_PINS. */
  pins: CorePin[];
  known: { pwm: Knowledge; analog: Knowledge; interrupt: Knowledge; dac: Knowledge; serial: Knowledge };
  /** The serial ports that exist for this board (when `known.serial` is known). */
  serialPorts?: CoreSerialPort[];
  /** Wire, Wire1, SPI, SPI1 … with their pins, when the core's tables say more than the macros. */
  buses?: Bus[];
  /** Pins on one timer or slice: changing the frequency of one moves the others. */
  sharedTimers?: Array<{ timer: string; pins: number[]; source?: SourceRef }>;
  /** What analogWrite does on a pin without PWM on this core, in words that are true for it. */
  analogWriteWithoutPwm?: { text: string; source?: SourceRef };
  /** When the core's pinMode/digitalWrite/digitalRead/analogWrite return without effect for a pin
   * number past its table (mbed checks PINS_COUNT): a call there is a WARNING saying so, not an ERROR. */
  pinsPastTableIgnored?: { text: string; source?: SourceRef };
  /** The variant's pin header is the only place this core defines pin names (A0, D7, T3 …): one it lacks does not compile. */
  pinNamesFromVariant?: { source?: SourceRef };
  /** analogRead(n) with n below A0 reads A<n> (AVR, SAMD and Renesas do this); undefined when the core's source does not say. */
  analogReadAcceptsChannelNumbers?: boolean;
  /** Core rules and chip traps worth telling the agent, compact, each cited. */
  notes: ContextNote[];
  /** Files read, for cache invalidation. */
  files: string[];
  warnings: Finding[];
  /** Checks only this core needs (ESP32 LEDC generation, RP2040 slice frequencies…). */
  check?: CoreCheck;
}

/** A call in the sketch with its arguments' values where they are known integers. */
export interface SketchCall {
  name: string;
  /** `WiFi` in `WiFi.begin(...)`, `ns` in `ns::f(...)`; undefined for a free (or `::`) function. */
  receiver?: string;
  /** Index of the name token in the sketch's tokens (for CoreSketchView.declares). */
  at: number;
  args: Token[][];
  /** Each argument's possible integer values: one for a constant, several over a literal loop range. */
  values: Array<number[] | undefined>;
  token: Token;
}

export interface CoreSketchView {
  calls: SketchCall[];
  /** Every identifier the sketch's active code uses. */
  identifiers: Set<string>;
  /** `#include` headers the sketch names. */
  includes: string[];
  /** Folders of the libraries the build uses. */
  libraryDirs: string[];
  /** Whether the sketch declares `name` where token `at` sees it (its own `tone`, `SPI`). */
  declares(name: string, at: number): boolean;
  boardName: string;
  board: ResolvedBoard;
}

/** Returns undefined when the board is not of this reader's core. */
export type CoreTableReader = (board: ResolvedBoard, variant: VariantHeader) => CoreFacts | undefined;

/** A core's check; `stored` is its rule and input when it can be made again from them (core-checks.ts). */
export interface CoreCheck {
  (sketch: CoreSketchView): Finding[];
  readonly stored?: StoredCoreCheck;
}

export interface StoredCoreCheck {
  rule: string;
  input: unknown;
}
