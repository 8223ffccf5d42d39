// `compile`: build a sketch for a board; its entry in BOARD_OPERATIONS (boards/operations.ts) gives it its faces.
import { z } from 'zod';
import { compile, type CompileReport } from '../compile.js';
import type { CommandIo, Outcome } from '../command.js';
import type { OperationContext } from '../operation-context.js';
import type { compileInput } from '../operation-inputs.js';
import { detectBuildTool } from '../toolchains/detect.js';
import type { CompilerDiagnostic } from '../toolchains/gcc-diagnostics.js';
import { cutDiagnostics, outputCutter } from '../toolchains/outside-files.js';
import type { BoardCommandDeps } from './deps.js';
import { sketchTarget } from './sketch-target.js';

export interface CompileData {
  sketch: string;
  fqbn: string;
  success: boolean;
  image?: string;
  flash?: CompileReport['flash'];
  ram?: CompileReport['ram'];
  diagnostics: number;
}

export async function compileRun(input: z.output<z.ZodObject<typeof compileInput>>, deps: OperationContext, io: CommandIo): Promise<Outcome<CompileData>> {
  const target = await sketchTarget(io.cwd, input.sketch, input.fqbn, undefined);
  const report = await compileForCommand(deps, target.sketch.dir, target.fqbn, io, input.verbose === true);
  const data: CompileData = {
    sketch: target.sketch.dir,
    fqbn: target.fqbn,
    success: report.success,
    ...(report.image ? { image: report.image } : {}),
    ...(report.flash ? { flash: report.flash } : {}),
    ...(report.ram ? { ram: report.ram } : {}),
    diagnostics: report.diagnostics.length,
  };
  return { exitCode: report.success ? 0 : 1, data };
}

/** Shared with `upload`, which builds before it writes. */
export async function compileForCommand(
  deps: BoardCommandDeps,
  sketch: string,
  fqbn: string,
  io: CommandIo,
  verbose: boolean,
  buildPath?: string,
): Promise<CompileReport> {
  const tool = deps.tool ?? detectBuildTool();
  io.write(`Compiling ${sketch} for ${fqbn} with ${tool.name}\n`);
  const { mayShow } = io;
  const cut = mayShow ? outputCutter(mayShow) : (line: string) => line;
  const writeLine = (line: string) => {
    const kept = cut(line);
    if (kept !== undefined) io.write(`${kept}\n`);
  };
  const report = await compile({
    sketch,
    fqbn,
    tool,
    ...(buildPath ? { buildPath } : {}),
    signal: io.signal,
    ...(verbose ? { onOutput: writeLine } : {}),
  });
  const diagnostics = mayShow ? cutDiagnostics(report.diagnostics, mayShow) : report.diagnostics;
  for (const diagnostic of diagnostics) io.write(formatDiagnostic(diagnostic));
  if (!report.success) {
    if (diagnostics.length === 0) {
      // Cut over the whole output: the tail may start inside the excerpt of a refused file.
      const tailCut = mayShow ? outputCutter(mayShow) : (line: string) => line;
      const kept = report.output.split('\n').map(tailCut).filter((line): line is string => line !== undefined);
      io.write(`${kept.slice(-15).join('\n')}\n`);
    }
    io.write(`Compile failed for ${fqbn}.\n`);
    return report;
  }
  io.write(memoryLine('Flash', report.flash));
  io.write(memoryLine('RAM', report.ram));
  if (report.libraries.length > 0) {
    io.write(`Libraries: ${report.libraries.map((lib) => `${lib.name}${lib.version ? ` ${lib.version}` : ''}`).join(', ')}\n`);
  }
  for (const finding of report.findings.filter((f) => f.code !== 'compile-error')) io.write(`${finding.severity}: ${finding.message}\n`);
  io.write(`Built ${report.image ?? report.buildPath}\n`);
  return report;
}

function formatDiagnostic(diagnostic: CompilerDiagnostic): string {
  const context = (diagnostic.context ?? []).map((item) => `${item.file}${item.line ? `:${item.line}` : ''}: ${item.message}\n`);
  const notes = (diagnostic.suggestions ?? []).map((note) => `${note.file}:${note.line}:${note.col}: note: ${note.message}\n`);
  // A diagnostic in a file the output may not show has no place, only what it was.
  const main = diagnostic.line ? `${diagnostic.file}:${diagnostic.line}:${diagnostic.col}: ${diagnostic.severity.toLowerCase()}: ${diagnostic.message}\n` : `${diagnostic.message}\n`;
  return [...context, main, ...notes].join('');
}

function memoryLine(label: string, use: CompileReport['flash']): string {
  if (!use) return '';
  if (use.max === undefined) return `${label}: ${use.used} bytes\n`;
  return `${label}: ${use.used} of ${use.max} bytes (${Math.round((use.used / use.max) * 100)}%)\n`;
}
