// Flash and RAM use against the board's limits, as findings for the Arduino context's sketch
// check. Arduino warns from 75% RAM: the stack grows into what globals leave free.
import type { Finding } from '../../platform/finding.js';
import type { CompileResult } from './build-tool.js';

const LOW_RAM_SHARE = 0.75;

export function memoryFindings(result: Pick<CompileResult, 'flash' | 'ram' | 'sketch'>): Finding[] {
  const findings: Finding[] = [];
  const { flash, ram } = result;
  if (flash?.max !== undefined && flash.used > flash.max) {
    findings.push({
      severity: 'error',
      code: 'flash-overflow',
      message: `sketch uses ${flash.used} bytes of flash, ${flash.used - flash.max} more than the board's ${flash.max} (upload.maximum_size)`,
      file: result.sketch,
      suggestion: 'Move constant strings and tables to PROGMEM/F(), drop unused libraries, or pick a board with more flash.',
    });
  }
  if (ram?.max !== undefined && ram.used > ram.max) {
    findings.push({
      severity: 'error',
      code: 'ram-overflow',
      message: `global variables use ${ram.used} bytes of RAM, more than the board's ${ram.max} (upload.maximum_data_size)`,
      file: result.sketch,
      suggestion: 'Shrink buffers and arrays, or keep constant data in flash with PROGMEM/F().',
    });
  } else if (ram?.max !== undefined && ram.used > ram.max * LOW_RAM_SHARE) {
    findings.push({
      severity: 'warning',
      code: 'ram-low',
      message: `global variables use ${ram.used} of ${ram.max} bytes of RAM (${Math.round((ram.used / ram.max) * 100)}%), leaving ${ram.max - ram.used} for the stack`,
      file: result.sketch,
      suggestion: 'Wrap string literals in F() and shrink buffers; stability problems may occur.',
    });
  }
  return findings;
}
