// stm32duino's serial objects: WSerial.h turns SERIAL_UART_INSTANCE (variant) into ENABLE_HWSERIALn
// and, when the chip has that U(S)ART (USARTn_BASE), HAVE_HWSERIALn; Serial.cpp then creates
// `Uart Serialn(USARTn)` (stm32duino/Arduino_Core_STM32 b4bae0d cores/arduino/Serial.cpp:36-44),
// and `Serial` is a macro for it, or for SerialUSB when the USB menu enables CDC.
import { existsSync } from 'node:fs';
import { join } from '../../../platform/path-join.js';
import { readRegularFileSync } from '../../../platform/regular-file.js';
import type { SourceRef } from '../../types.js';
import { tokenize } from '../c-tokens.js';
import { preprocess, type Macro } from '../preprocessor.js';
import type { ResolvedBoard } from '../../../platform/arduino/resolve.js';
import type { CoreSerialPort, Knowledge } from './core-facts.js';
import type { Stm32Tables } from './stm32-variant.js';

export interface Stm32Serial {
  known: Knowledge;
  ports?: CoreSerialPort[];
  files: string[];
}

export function readStm32Serial(board: ResolvedBoard, tables: Stm32Tables, toPin: (value: number | undefined) => number | undefined): Stm32Serial {
  const wserial = join(board.corePath, 'WSerial.h');
  if (!existsSync(wserial)) return { known: { known: false, reason: `${wserial} is not installed` }, files: [wserial] };
  const device = deviceHeader(board);
  const bases = new Map<string, SourceRef>();
  const files = [wserial];
  if (device && existsSync(device)) {
    files.push(device);
    // The device header is large (644 KB for the F401): the defines are found in its bytes, which are
    // never decoded whole, and lines are counted only as far as the last of them (a byte as latin1 is
    // one character, so an offset in the bytes is one in that text).
    const bytes = readRegularFileSync(device);
    const defines = uartBaseDefines(bytes);
    const head = defines.length > 0 ? bytes.toString('latin1', 0, defines[defines.length - 1].index) : '';
    let line = 1;
    let counted = 0;
    for (const match of defines) {
      for (let index = head.indexOf('\n', counted); index >= 0 && index < match.index; index = head.indexOf('\n', index + 1)) line++;
      counted = match.index;
      bases.set(match.name, { file: device, line });
    }
  } else {
    // Without the CMSIS device header, the chip's U(S)ARTs are the ones its PinMap_UART rows name.
    for (const row of [...(tables.pinMaps.get('PinMap_UART_TX') ?? []), ...(tables.pinMaps.get('PinMap_UART_RX') ?? [])]) {
      if (!bases.has(`${row.peripheral}_BASE`)) bases.set(`${row.peripheral}_BASE`, row.source);
    }
  }
  const macros = new Map<string, Macro>(tables.macros);
  for (const [name, source] of bases) macros.set(name, { name, body: tokenize('1'), source });
  // Its macros and #include lines are what is read: its other lines are passed over untokenized.
  const result = preprocess([wserial], { defines: {}, macros, includeDirs: [], follow: () => false, tokensOf: () => false });

  const serialAlias = result.macros.get('Serial');
  const aliasTarget = serialAlias && !serialAlias.params ? serialAlias.body.map((token) => token.text).join('') : undefined;
  const defaultPins = (): CoreSerialPort['pins'] => {
    const tx = toPin(tables.evaluate('PIN_SERIAL_TX'));
    const rx = toPin(tables.evaluate('PIN_SERIAL_RX'));
    return tx !== undefined || rx !== undefined ? { ...(tx !== undefined ? { TX: tx } : {}), ...(rx !== undefined ? { RX: rx } : {}) } : undefined;
  };
  // PIN_SERIAL_TX/RX are the pins of the U(S)ART that SERIAL_UART_INSTANCE enables (WSerial.h's own ENABLE_HWSERIALn).
  const instanceEnable = [...result.macros.values()].find((macro) => /^ENABLE_HWSERIAL(LP)?\d+$/.test(macro.name) && macro.source?.file === wserial)?.name;
  const ports: CoreSerialPort[] = [];
  // forEach over the core's hundreds of macros (Properties.forEach says why).
  result.macros.forEach((macro, name) => {
    if (!name.startsWith('HAVE_HWSERIAL')) return;
    const uart = /^HAVE_HWSERIAL(LP)?(\d+)$/.exec(name);
    if (!uart) return;
    const object = `Serial${uart[1] ?? ''}${uart[2]}`;
    const pins = instanceEnable === `ENABLE_HWSERIAL${uart[1] ?? ''}${uart[2]}` ? defaultPins() : undefined;
    ports.push({ name: object, kind: 'uart', ...(pins ? { pins } : {}), ...(macro.source ? { source: macro.source } : {}) });
  });
  // stm32duino b4bae0d libraries/USBDevice/src/USBSerial.cpp:19-30 creates SerialUSB whenever
  // USBCON and USBD_USE_CDC are set (DISABLE_GENERIC_SERIALUSB only keeps Serial off it).
  if (result.macros.has('USBCON') && result.macros.has('USBD_USE_CDC')) {
    // The source is WSerial.h's #include of USBSerial.h on an active line, as the preprocessor read it.
    const line = result.includes.find((include) => include.file === wserial && include.header === 'USBSerial.h')?.line;
    ports.push({ name: 'SerialUSB', kind: 'usb', source: { file: wserial, ...(line !== undefined ? { line } : {}) } });
  }
  const target = ports.find((port) => port.name === aliasTarget);
  if (target && serialAlias) ports.unshift({ ...target, name: 'Serial', ...(serialAlias.source ? { source: serialAlias.source } : {}) });
  const source = serialAlias?.source ?? ports[0]?.source ?? { file: wserial };
  return { known: { known: true, source }, ports, files };
}

/** `system/Drivers/CMSIS/Device/ST/STM32F4xx/Include/stm32f401xe.h` for build.series/product_line. */
function deviceHeader(board: ResolvedBoard): string | undefined {
  const series = board.expanded('build.series');
  const line = board.expanded('build.product_line');
  if (!series || !line) return undefined;
  return join(board.corePlatformPath, 'system/Drivers/CMSIS/Device/ST', series, 'Include', `${line.toLowerCase()}.h`);
}

const isWordCode = (code: number): boolean => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
const UART_BASE = /^(?:LP)?U(?:S)?ART\d+_BASE$/;
const BASE = Buffer.from('_BASE');
const DEFINE = Buffer.from('#define');

/** True when a line ends just before `index` of UTF-8 `bytes`: LF, CR, or U+2028/U+2029 (E2 80 A8/A9). */
function lineEndsBefore(bytes: Buffer, index: number): boolean {
  const byte = bytes[index - 1];
  if (byte === 10 || byte === 13) return true;
  return index >= 3 && bytes[index - 3] === 0xe2 && bytes[index - 2] === 0x80 && (byte === 0xa8 || byte === 0xa9);
}

/**
 * The lines `#define USART2_BASE …` (also UARTn, LPUARTn) of a device header's UTF-8 bytes, as the
 * multiline pattern /^#define[ \t]+((?:LP)?U(?:S)?ART\d+_BASE)\b/ finds them in its text: the name and
 * the byte offset where its line starts. Found from each `_BASE` of the bytes backwards, which is
 * some fifty times cheaper than that pattern tried at each of the header's 10,000 lines, and needs
 * no text of the whole file (an ASCII byte is never part of another character in UTF-8).
 */
export function uartBaseDefines(bytes: Buffer): Array<{ name: string; index: number }> {
  const found: Array<{ name: string; index: number }> = [];
  for (let at = bytes.indexOf(BASE); at >= 0; at = bytes.indexOf(BASE, at + BASE.length)) {
    const end = at + BASE.length;
    if (end < bytes.length && isWordCode(bytes[end])) continue;
    let start = at;
    while (start > 0 && isWordCode(bytes[start - 1])) start--;
    const name = bytes.toString('latin1', start, end);
    if (!UART_BASE.test(name)) continue;
    let blank = start;
    while (blank > 0 && (bytes[blank - 1] === 32 || bytes[blank - 1] === 9)) blank--;
    const index = blank - DEFINE.length;
    if (blank === start || index < 0 || bytes.compare(DEFINE, 0, DEFINE.length, index, blank) !== 0) continue;
    if (index > 0 && !lineEndsBefore(bytes, index)) continue;
    found.push({ name, index });
  }
  return found;
}
