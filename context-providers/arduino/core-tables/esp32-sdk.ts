// Chip facts from the ESP-IDF headers a platform installs: `tools/sdk/include/soc/soc/*.h` and
// `tools/sdk/include/driver/driver/*.h` in Espressif's 1.0.x core (and cores built on it), and
// `<sdk>/include/soc/<mcu>/include/soc/*.h` in 2.x (`tools/sdk/<mcu>`) and 3.x (the
// `esp32-arduino-libs` tool, `<tool>/<mcu>`). Where a header states a fact it wins over the data file.
import { existsSync } from 'node:fs';
import { join } from '../../../platform/path-join.js';
import type { SourceRef } from '../../types.js';
import { evaluate } from '../c-expression.js';
import type { Token } from '../c-tokens.js';
import { expandMacros, preprocess, type Macro } from '../preprocessor.js';
import type { ResolvedBoard } from '../../../platform/arduino/resolve.js';

export interface SdkChannel {
  /** ADC unit (1 or 2); absent for touch and DAC. */
  unit?: number;
  /** ADC channel, touch pad number, DAC channel (1-based, as Arduino's DAC1/DAC2). */
  channel: number;
  source: SourceRef;
}

export interface SdkFigure<T> {
  value: T;
  source: SourceRef;
}

export interface SdkFacts {
  /** The folder the chip's soc headers were read from; undefined when none is installed. */
  socDir?: string;
  files: string[];
  macros: Map<string, Macro>;
  adc: Map<number, SdkChannel>;
  touch: Map<number, SdkChannel>;
  dac: Map<number, SdkChannel>;
  gpios?: SdkFigure<number[]>;
  inputOnly?: SdkFigure<number[]>;
  uarts?: SdkFigure<number>;
}

const SOC_FILES = ['soc_caps.h', 'gpio_pins.h', 'adc_channel.h', 'touch_sensor_channel.h', 'touch_channel.h', 'dac_channel.h'];
const DRIVER_FILES = ['gpio.h', 'uart.h'];

/** Where this platform keeps the chip's SDK: `compiler.sdk.path` as its recipes use it, then the known layouts. */
function sdkRoots(board: ResolvedBoard, mcu: string): string[] {
  const roots = [board.expanded('compiler.sdk.path'), join(board.platformPath, 'tools', 'sdk', mcu), join(board.platformPath, 'tools', 'sdk')];
  const libs = board.expanded('runtime.tools.esp32-arduino-libs.path');
  if (libs) roots.push(join(libs, mcu));
  return [...new Set(roots.filter((root): root is string => !!root && !root.includes('{') && existsSync(root)))];
}

export function readSdkFacts(board: ResolvedBoard, mcu: string): SdkFacts {
  const facts: SdkFacts = { files: [], macros: new Map(), adc: new Map(), touch: new Map(), dac: new Map() };
  for (const root of sdkRoots(board, mcu)) {
    for (const socDir of [join(root, 'include', 'soc', mcu, 'include', 'soc'), join(root, 'include', 'soc', 'soc')]) {
      const files = SOC_FILES.map((name) => join(socDir, name)).filter((file) => existsSync(file));
      if (files.length === 0) continue;
      const driverDir = join(root, 'include', 'driver', 'driver');
      files.push(...DRIVER_FILES.map((name) => join(driverDir, name)).filter((file) => existsSync(file)));
      const result = preprocess(files, { defines: {}, includeDirs: [], follow: () => false });
      facts.socDir = socDir;
      facts.files = result.files;
      facts.macros = result.macros;
      readChannels(result.macros, facts);
      readGpios(result.macros, result.tokens, facts);
      readUarts(result.macros, result.tokens, facts);
      return facts;
    }
  }
  return facts;
}

const bodyText = (macro: Macro): string => macro.body.map((token) => token.text).join(' ');
const sourceOf = (macro: Macro): SourceRef => macro.source ?? { file: '' };

// `ADC1_GPIO36_CHANNEL ADC1_CHANNEL_0` (IDF 3.x) or `ADC1_GPIO1_CHANNEL 0` (IDF 5.x); the same
// shapes for touch pads and DAC channels (`DAC_CHANNEL_1` is 1-based, `DAC_CHAN_0` 0-based).
function readChannels(macros: Map<string, Macro>, facts: SdkFacts): void {
  for (const [name, macro] of macros) {
    const body = bodyText(macro);
    let match = /^ADC([12])_GPIO(\d+)_CHANNEL$/.exec(name);
    if (match) {
      const channel = /^(?:ADC\d_CHANNEL_)?(\d+)$/.exec(body);
      if (channel) facts.adc.set(Number(match[2]), { unit: Number(match[1]), channel: Number(channel[1]), source: sourceOf(macro) });
      continue;
    }
    match = /^TOUCH_PAD_GPIO(\d+)_CHANNEL$/.exec(name);
    if (match) {
      const channel = /^(?:TOUCH_PAD_NUM)?(\d+)$/.exec(body);
      if (channel) facts.touch.set(Number(match[1]), { channel: Number(channel[1]), source: sourceOf(macro) });
      continue;
    }
    match = /^DAC_GPIO(\d+)_CHANNEL$/.exec(name);
    if (match) {
      const channel = /^DAC_(CHANNEL|CHAN)_(\d+)$/.exec(body);
      if (channel) facts.dac.set(Number(match[1]), { channel: Number(channel[2]) + (channel[1] === 'CHAN' ? 1 : 0), source: sourceOf(macro) });
    }
  }
}

// `BIT34` is `1ULL << 34` (esp_bit_defs.h, not followed here).
function evaluateMask(macros: Map<string, Macro>, name: string): bigint | undefined {
  if (!macros.has(name)) return undefined;
  const evaluation = evaluate(expandMacros([{ kind: 'identifier', text: name, line: 0, bol: false }], macros), {
    identifier: (id) => {
      const bit = /^BIT(\d+)$/.exec(id);
      return bit ? 1n << BigInt(bit[1]) : undefined;
    },
    unknownIsZero: false,
  });
  return evaluation.ok ? evaluation.value : undefined;
}

const bits = (mask: bigint): number[] => [...Array(64).keys()].filter((bit) => (mask >> BigInt(bit)) & 1n);

function readGpios(macros: Map<string, Macro>, tokens: Token[], facts: SdkFacts): void {
  const valid = evaluateMask(macros, 'SOC_GPIO_VALID_GPIO_MASK');
  const output = evaluateMask(macros, 'SOC_GPIO_VALID_OUTPUT_GPIO_MASK');
  if (valid !== undefined) {
    const gpios = bits(valid);
    facts.gpios = { value: gpios, source: sourceOf(macros.get('SOC_GPIO_VALID_GPIO_MASK')!) };
    if (output !== undefined) facts.inputOnly = { value: gpios.filter((gpio) => !((output >> BigInt(gpio)) & 1n)), source: sourceOf(macros.get('SOC_GPIO_VALID_OUTPUT_GPIO_MASK')!) };
    return;
  }
  // IDF 3.x: the gpio_num_t enumerators (`GPIO_NUM_21 = 21,`) and GPIO_IS_VALID_OUTPUT_GPIO's `gpio_num < 34`.
  const gpios: number[] = [];
  let first: Token | undefined;
  for (let index = 0; index + 2 < tokens.length; index++) {
    const match = /^GPIO_NUM_(\d+)$/.exec(tokens[index].text);
    if (!match || tokens[index + 1].text !== '=' || tokens[index + 2].text !== match[1]) continue;
    gpios.push(Number(match[1]));
    first ??= tokens[index];
  }
  if (gpios.length === 0 || !first) return;
  facts.gpios = { value: gpios, source: { file: first.file ?? '', line: first.line } };
  const outputMacro = macros.get('GPIO_IS_VALID_OUTPUT_GPIO');
  const limit = outputMacro ? /\b\w+\s*<\s*(\d+)\s*\)/.exec(bodyText(outputMacro)) : undefined;
  if (outputMacro && limit) facts.inputOnly = { value: gpios.filter((gpio) => gpio >= Number(limit[1])), source: sourceOf(outputMacro) };
}

function readUarts(macros: Map<string, Macro>, tokens: Token[], facts: SdkFacts): void {
  const macro = macros.get('SOC_UART_NUM');
  if (macro) {
    const evaluation = evaluate(expandMacros(macro.body, macros), { identifier: () => undefined, unknownIsZero: false });
    if (evaluation.ok) facts.uarts = { value: Number(evaluation.value), source: sourceOf(macro) };
    return;
  }
  // IDF 3.x: `UART_NUM_0 = 0x0, … UART_NUM_MAX,` in driver/uart.h.
  const max = tokens.findIndex((token) => token.text === 'UART_NUM_MAX');
  if (max < 0) return;
  const ports = new Set(tokens.slice(Math.max(0, max - 40), max).map((token) => /^UART_NUM_(\d+)$/.exec(token.text)?.[1]).filter((n) => n !== undefined));
  if (ports.size > 0) facts.uarts = { value: ports.size, source: { file: tokens[max].file ?? '', line: tokens[max].line } };
}
