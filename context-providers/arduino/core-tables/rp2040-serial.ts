// arduino-pico's serial objects as its core headers declare them under the board's macros:
// `extern SerialUSB Serial;` (SerialUSB.h), `extern SerialUART Serial1;` / `Serial2` (SerialUART.h,
// pins from the variant's PIN_SERIALn_TX/RX), `extern SerialPIO Serial3;` (SerialPIO.h, only
// for ARDUINO_NANO_RP2040_CONNECT).
import { existsSync } from 'node:fs';
import { join } from '../../../platform/path-join.js';
import type { SourceRef } from '../../types.js';
import type { Token } from '../c-tokens.js';
import { preprocess, type Macro } from '../preprocessor.js';
import type { CoreSerialPort } from './core-facts.js';

const SERIAL_HEADERS: Array<{ file: string; type: string; kind: CoreSerialPort['kind'] }> = [
  { file: 'SerialUSB.h', type: 'SerialUSB', kind: 'usb' },
  { file: 'SerialUART.h', type: 'SerialUART', kind: 'uart' },
  { file: 'SerialPIO.h', type: 'SerialPIO', kind: 'uart' },
];

export interface PicoSerial {
  ports: CoreSerialPort[];
  files: string[];
}

/** `pinOf('PIN_SERIAL1_TX')` gives the variant's pin; Serial<n> takes PIN_SERIAL<n>_TX/RX. */
export function readPicoSerial(corePath: string, macros: Map<string, Macro>, pinOf: (name: string) => number | undefined): PicoSerial {
  const ports: CoreSerialPort[] = [];
  const files: string[] = [];
  for (const header of SERIAL_HEADERS) {
    const file = join(corePath, header.file);
    if (!existsSync(file)) continue;
    const result = preprocess([file], { defines: {}, macros, includeDirs: [], follow: () => false });
    files.push(file);
    for (const { name, source } of externsOf(result.tokens, header.type)) {
      const number = /^Serial(\d+)$/.exec(name)?.[1];
      // Serial3 of the Nano RP2040 Connect names its pins SERIAL3_TX/RX.
      const tx = number ? (pinOf(`PIN_SERIAL${number}_TX`) ?? pinOf(`SERIAL${number}_TX`)) : undefined;
      const rx = number ? (pinOf(`PIN_SERIAL${number}_RX`) ?? pinOf(`SERIAL${number}_RX`)) : undefined;
      const pins = tx !== undefined || rx !== undefined ? { pins: { ...(tx !== undefined ? { TX: tx } : {}), ...(rx !== undefined ? { RX: rx } : {}) } } : {};
      ports.push({ name, kind: header.kind, ...pins, source });
    }
  }
  return { ports, files };
}

// `extern Type A;` and `extern Type A, B;` at file scope.
function externsOf(tokens: Token[], type: string): Array<{ name: string; source: SourceRef }> {
  const found: Array<{ name: string; source: SourceRef }> = [];
  for (let index = 0; index + 2 < tokens.length; index++) {
    if (tokens[index].text !== 'extern' || tokens[index + 1].text !== type) continue;
    for (let cursor = index + 2; cursor < tokens.length && tokens[cursor].text !== ';'; cursor++) {
      const token = tokens[cursor];
      if (token.kind === 'identifier' && (tokens[cursor + 1]?.text === ',' || tokens[cursor + 1]?.text === ';')) {
        found.push({ name: token.text, source: { file: token.file ?? '', line: token.line } });
      }
    }
  }
  return found;
}
