// Compiler messages of XC8, XC16 and XC32 turned into file:line findings.
// XC16/XC32 and XC8 2.x+ speak gcc/clang (`main.c:12:5: error: ...`); XC8's
// older front end writes `main.c:12:: error: (192) undefined identifier`, its
// linker `:0:: error: (1347) can't find 0x1A words ...`, and the XC16/XC32
// linkers prefix their own name (`xc16-ld: error: Link Error: ...`). CMake
// builds add `CMake Error at file:line (command):` and ninja's last word.
import { isAbsolute, resolve } from 'node:path';
import type { Finding, Severity } from '../../platform/finding.js';

const kinds = '(fatal error|error|warning|note|advisory)';
const located = new RegExp(`^(.+?):(\\d+):(?:(\\d+):|:)?\\s*${kinds}:\\s*(?:\\((\\d+)\\)\\s*)?(.*)$`);
const fileless = new RegExp(`^:\\d*::?\\s*${kinds}:\\s*(?:\\((\\d+)\\)\\s*)?(.*)$`);
const byTool = new RegExp(`^([^\\s:]+):\\s+${kinds}:\\s*(?:\\((\\d+)\\)\\s*)?(.*)$`);
const sourceFile = /\.(c|h|cpp|hpp|s|S|as|asm|inc)$/;
const makeFailure = /^make(?:\[\d+\])?: \*\*\* (.*)$/;
const ninjaFailure = /^ninja: build stopped: (.*)$/;
const cmakeError = /^CMake Error at (.+?):(\d+) \(([^)]*)\):$/;

export function parseXcDiagnostics(output: string, projectFolder: string): Finding[] {
  const findings: Finding[] = [];
  const lines = output.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    const cmake = cmakeError.exec(line);
    if (cmake) {
      // The message is the indented paragraph under the heading.
      const message = lines.slice(index + 1).find((l) => l.trim() !== '')?.trim() ?? '';
      findings.push({ severity: 'error', message: `CMake ${cmake[3]}(): ${message}`, file: isAbsolute(cmake[1]) ? cmake[1] : resolve(projectFolder, cmake[1]), line: Number(cmake[2]), code: 'cmake' });
      continue;
    }
    const match = located.exec(line);
    if (match) {
      const [, file, lineNo, column, kind, number, message] = match;
      findings.push({
        severity: severityOf(kind),
        message: message.trim(),
        file: isAbsolute(file) ? file : resolve(projectFolder, file),
        line: Number(lineNo),
        ...(column ? { column: Number(column) } : {}),
        code: number ? `xc-${number}` : 'xc-compiler',
      });
      continue;
    }
    const bare = fileless.exec(line);
    if (bare) {
      const [, kind, number, message] = bare;
      findings.push({ severity: severityOf(kind), message: message.trim(), code: number ? `xc-${number}` : 'xc-compiler' });
      continue;
    }
    const tool = byTool.exec(line);
    if (tool) {
      const [, prefix, kind, number, message] = tool;
      // A source file as prefix is a message about the whole file; anything else names a tool.
      const file = sourceFile.test(prefix) ? { file: resolve(projectFolder, prefix) } : {};
      findings.push({ severity: severityOf(kind), message: 'file' in file ? message.trim() : `${prefix}: ${message.trim()}`, ...file, code: number ? `xc-${number}` : 'xc-compiler' });
      continue;
    }
    const make = makeFailure.exec(line);
    if (make && findings.every((f) => f.severity !== 'error')) {
      findings.push({ severity: 'error', message: `make: ${make[1]}`, code: 'make' });
    }
    const ninja = ninjaFailure.exec(line);
    if (ninja && findings.every((f) => f.severity !== 'error')) {
      findings.push({ severity: 'error', message: `ninja: build stopped: ${ninja[1]}`, code: 'ninja' });
    }
  }
  // A header's warning repeats for every file that includes it; keep one.
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.severity}|${f.file}|${f.line}|${f.column}|${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function severityOf(kind: string): Severity {
  if (kind === 'error' || kind === 'fatal error') return 'error';
  if (kind === 'warning') return 'warning';
  return 'info';
}
