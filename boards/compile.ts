// Compiling a sketch for a board, whichever toolchain is installed.
import type { Finding } from '../platform/finding.js';
import type { BuildTool, CompileRequest, CompileResult } from './toolchains/build-tool.js';
import { detectBuildTool } from './toolchains/detect.js';
import { diagnosticToFinding } from './toolchains/gcc-diagnostics.js';
import { memoryFindings } from './toolchains/memory.js';

export interface CompileReport extends CompileResult {
  /** Compiler diagnostics and memory limits as findings for the sketch check. */
  findings: Finding[];
}

/** Compiles with `tool`, or the toolchain `detectBuildTool()` picks. */
export async function compile(request: CompileRequest & { tool?: BuildTool }): Promise<CompileReport> {
  const { tool = detectBuildTool(), ...rest } = request;
  const result = await tool.compile(rest);
  return { ...result, findings: [...result.diagnostics.map(diagnosticToFinding), ...memoryFindings(result)] };
}
