// uartBaseDefines finds a device header's `#define USARTn_BASE` lines in its bytes, without a
// pattern tried at every line. It must find what /^#define[ \t]+((?:LP)?U(?:S)?ART\d+_BASE)\b/gm finds
// in the text, name and line start (as a byte offset): on the F401's real 644 KB CMSIS header, and on
// the corners a header could hold, with characters of two and three bytes before them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { uartBaseDefines } from '../../../../context-providers/arduino/core-tables/stm32-serial.js';
import { FIXTURES } from '../paths.js';

const PATTERN = /^#define[ \t]+((?:LP)?U(?:S)?ART\d+_BASE)\b/gm;
// The pattern's finds in the text, each line start as the byte offset it is in the text's UTF-8.
const byPattern = (text: string) => [...text.matchAll(PATTERN)].map((match) => ({ name: match[1], index: Buffer.byteLength(text.slice(0, match.index)) }));

describe("an STM32 device header's U(S)ART base addresses", () => {
  test("are the pattern's on the F401's CMSIS header (USART1, 2 and 6)", () => {
    const header = join(FIXTURES, 'data_dir_32bit/packages/STMicroelectronics/hardware/stm32/3.0.0-dev/system/Drivers/CMSIS/Device/ST/STM32F4xx/Include/stm32f401xe.h');
    const bytes = readFileSync(header);
    const found = uartBaseDefines(bytes);
    expect(found).toEqual(byPattern(bytes.toString('utf8')));
    expect(found.map((define) => define.name).sort()).toEqual(['USART1_BASE', 'USART2_BASE', 'USART6_BASE']);
  });

  test.each([
    ['at the start of the text, tabs and spaces, LPUART and UART', '#define USART1_BASE 1\n#define\tUART4_BASE 2\n#define  \t LPUART1_BASE 3\n'],
    ['not inside a longer name, not as a prefix, not without its number', '#define XUSART1_BASE 1\n#define USART1_BASE_NS 2\n#define USART_BASE 3\n#define USART12_BASE(x) 4\n'],
    ['not after leading blanks, another directive or text on the line', '  #define USART1_BASE 1\n#undef USART2_BASE\nint a; #define USART3_BASE 3\n#defineUSART4_BASE 4\n'],
    ['after CR, CRLF and the Unicode line ends, and at the end of the text', '#define USART1_BASE\r#define USART2_BASE\r\n#define USART3_BASE\u2028#define USART4_BASE\u2029#define USART5_BASE'],
    ['used, not defined', 'x = USART1_BASE + UART4_BASE;\n/* #define USART2_BASE */\n'],
    ['after text of several bytes a character: é, €, 𝄞, and a line that ends in one', '/* é € 𝄞 */\n#define USART1_BASE 1\n/* ü */ #define USART2_BASE 2\n€\n#define UART4_BASE 3\n'],
  ])('%s', (_name, text) => {
    const found = uartBaseDefines(Buffer.from(text, 'utf8'));
    expect(found).toEqual(byPattern(text));
  });
});
