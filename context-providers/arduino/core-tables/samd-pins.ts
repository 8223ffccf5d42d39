// The SAMD core's pin table as variant.cpp defines it: `g_APinDescription[]` rows
// `{ PORTA, 5, PIO_DIGITAL, (PIN_ATTR_DIGITAL|PIN_ATTR_PWM|…), ADC_Channel5, PWM0_CH1, TCC0_CH1, EXTERNAL_INT_5 }`,
// with the enums and PIN_ATTR_* macros of the core's WVariant.h, under the board's -D flags
// (`__SAMD21J18A__` adds ADC channels and TC6/TC7).
import { existsSync } from 'node:fs';
import { join } from '../../../platform/path-join.js';
import type { Finding, SourceRef } from '../../types.js';
import type { Token } from '../c-tokens.js';
import { preprocess, type Macro } from '../preprocessor.js';
import type { ResolvedBoard } from '../../../platform/arduino/resolve.js';
import { isInside, type VariantHeader } from '../variant-header.js';
import { evaluateTokens, readArrays, readEnums } from './c-tables.js';

export interface SamdRow {
  /** Arduino pin number: the row's index in g_APinDescription. */
  number: number;
  /** `PA05`. */
  port?: string;
  /** The row's fields by PinDescription member; undefined where a field is not a known integer. */
  attribute?: bigint;
  adcChannel?: bigint;
  pwmChannel?: bigint;
  extInt?: bigint;
  /** The fields as written, for messages: `PWM0_CH1`. */
  written: string[];
  source: SourceRef;
}

export interface SamdTable {
  rows: SamdRow[];
  source?: SourceRef;
  macros: Map<string, Macro>;
  enums: Map<string, bigint>;
  /** `extern Uart Serial1;` declarations in the variant header, with their lines. */
  uarts: Array<{ name: string; source: SourceRef }>;
  files: string[];
  warnings: Finding[];
  missing?: string;
}

export function readSamdTable(board: ResolvedBoard, variant: VariantHeader): SamdTable {
  const wvariant = join(board.corePath, 'WVariant.h');
  const variantDir = board.variantPath;
  const variantCpp = variantDir ? join(variantDir, 'variant.cpp') : undefined;
  const variantH = variantDir ? join(variantDir, 'variant.h') : undefined;
  const empty = (missing: string): SamdTable => ({ rows: [], macros: new Map(), enums: new Map(), uarts: [], files: [], warnings: [], missing });
  if (!variantCpp || !existsSync(variantCpp)) return empty(`${variantCpp ?? `${board.fqbn} names no variant`}: variant.cpp not found, so g_APinDescription cannot be read`);
  if (!existsSync(wvariant)) return empty(`${wvariant}: the core's WVariant.h (PIN_ATTR_*, the channel enums) not found`);

  const result = preprocess([wvariant, ...(variantH && existsSync(variantH) ? [variantH] : []), variantCpp], {
    defines: variant.defines,
    includeDirs: [variantDir!, board.corePath],
    follow: (path) => path === wvariant || isInside(path, variantDir!),
  });
  const enums = readEnums(result.tokens, result.macros);
  const scope = (name: string): bigint | undefined => enums.get(name);
  const table = readArrays(result.tokens).get('g_APinDescription');
  const uarts = externUarts(result.tokens.filter((token) => token.file === variantH));
  if (!table) return { ...empty(`${variantCpp}: no g_APinDescription[] initialiser found`), files: result.files, warnings: result.warnings };

  const rows = table.elements.map((element, number): SamdRow => {
    const fields = element.fields ?? [];
    const value = (index: number): bigint | undefined => (fields[index] ? evaluateTokens(fields[index], result.macros, scope) : undefined);
    const portNumber = value(0);
    const pinNumber = value(1);
    const port = portNumber !== undefined && pinNumber !== undefined && portNumber >= 0n ? `P${String.fromCharCode(65 + Number(portNumber))}${String(pinNumber).padStart(2, '0')}` : undefined;
    const row: SamdRow = {
      number,
      ...(port ? { port } : {}),
      attribute: value(3),
      adcChannel: value(4),
      pwmChannel: value(5),
      extInt: value(7),
      written: fields.map((field) => field.map((token) => token.text).join('')),
      source: element.source,
    };
    if (fields.length < 8 || row.attribute === undefined || row.adcChannel === undefined || row.pwmChannel === undefined || row.extInt === undefined) {
      result.warnings.push({ severity: 'info', code: 'pin-row-unknown', message: `${element.source.file}:${element.source.line}: pin ${number}'s g_APinDescription row could not be evaluated`, file: element.source.file, line: element.source.line });
    }
    return row;
  });
  return { rows, source: table.source, macros: result.macros, enums, uarts, files: result.files, warnings: result.warnings };
}

function externUarts(tokens: Token[]): SamdTable['uarts'] {
  const uarts: SamdTable['uarts'] = [];
  for (let index = 0; index + 3 < tokens.length; index++) {
    const declared = tokens[index].text === 'extern' && tokens[index + 1].text === 'Uart' && tokens[index + 2].kind === 'identifier' && tokens[index + 3].text === ';';
    if (declared && !uarts.some((uart) => uart.name === tokens[index + 2].text)) {
      uarts.push({ name: tokens[index + 2].text, source: { file: tokens[index + 2].file ?? '', line: tokens[index + 2].line } });
    }
  }
  return uarts;
}
