// arduino-pico's Arduino.h read as gcc reads it: `#include <pins_arduino.h>` at its line 32 pulls
// in the variant (which sets PICO_RP2350A) before __GPIOCNT is chosen at line 165, and the chip
// macro (PICO_RP2040 / PICO_RP2350) comes from @lib/<chip>/platform_def.txt, or from the cited
// data file when that file is not installed.
import { existsSync } from 'node:fs';
import { join } from '../../../platform/path-join.js';
import type { Finding } from '../../types.js';
import { evaluate } from '../c-expression.js';
import { tokenize } from '../c-tokens.js';
import { expandMacros, preprocess, type ActiveInclude, type Macro } from '../preprocessor.js';
import type { ResolvedBoard } from '../../../platform/arduino/resolve.js';
import { collectConstants, isInside, type HeaderConstant, type VariantHeader } from '../variant-header.js';
import { picoChipStandIn, type Rp2Chip } from './rp2040-chips.js';
import { compileFlags } from '../compile-flags.js';

export interface PicoHeader {
  macros: Map<string, Macro>;
  constants: Map<string, HeaderConstant>;
  /** Expands and evaluates `text`; undefined when it is not a known integer. */
  evaluate(text: string): number | undefined;
  files: string[];
  /** The active #include lines of the variant's headers. */
  includes: ActiveInclude[];
  warnings: Finding[];
}

export function readPicoHeader(board: ResolvedBoard, variant: VariantHeader, chip: Rp2Chip): PicoHeader {
  const warnings: Finding[] = [];
  // The recipe's @lib/<chip>/platform_def.txt sets the chip macro; when that file is not
  // installed, the data file gives the macro it sets upstream.
  const platformDef = join(board.corePlatformPath, 'lib', chip.id, 'platform_def.txt');
  const files = [platformDef];
  // compileDefines gave the variant header the data file's macros already (picoChipStandIn); a
  // variant header read otherwise is given them here.
  const chipFromFlags = Object.keys(chip.defines).every((name) => Object.hasOwn(variant.defines, name));
  const defines = chipFromFlags ? variant.defines : { ...variant.defines, ...chip.defines };
  if (picoChipStandIn(board, compileFlags(board).defines)) {
    warnings.push({
      severity: 'info',
      code: 'rp2-platform-def-missing',
      message: `${platformDef} is not installed; ${Object.keys(chip.defines).join(', ')} taken from ${chip.definesSource.file}:${chip.definesSource.line}`,
      file: platformDef,
    });
  }

  const variantsRoot = join(board.platformPath, 'variants');
  const variantDir = board.variantPath;
  const arduinoH = join(board.corePath, 'Arduino.h');
  const pinsH = variant.header;
  const inVariants = (path: string): boolean => isInside(path, variantsRoot) || (variantDir !== undefined && isInside(path, variantDir));
  // The variant header was read this way already (readVariantHeader: Arduino.h whole, with the
  // compile's -D flags, following the variant's headers on the compile's -I path, core first, as
  // gcc does): when the chip macro came with those flags, its macros and constants are these.
  const exists = existsSync(arduinoH);
  if (exists && chipFromFlags && variant.includes && pinsH && inVariants(pinsH)) {
    return {
      macros: variant.macros,
      constants: variant.constants,
      evaluate: variant.evaluate,
      files: [...files, ...variant.files],
      includes: variant.includes.filter((include) => inVariants(include.file)),
      warnings,
    };
  }
  const mains = exists ? [arduinoH] : pinsH ? [pinsH] : [];
  const result = preprocess(mains, {
    defines,
    includeDirs: variantDir ? [variantDir] : [],
    followSystem: true,
    follow: inVariants,
    // The constants are the variant's: the core's own code is not tokenized.
    tokensOf: inVariants,
  });
  warnings.push(...result.warnings);
  const constants = collectConstants(result.tokens, result.macros, warnings);
  const scope = { identifier: (name: string) => (constants.has(name) ? BigInt(constants.get(name)!.value) : undefined), unknownIsZero: false };
  return {
    macros: result.macros,
    constants,
    evaluate: (text) => {
      const evaluation = evaluate(expandMacros(tokenize(text), result.macros), scope);
      return evaluation.ok ? Number(evaluation.value) : undefined;
    },
    files: [...files, ...result.files],
    includes: result.includes.filter((include) => inVariants(include.file)),
    warnings,
  };
}
