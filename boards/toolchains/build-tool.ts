// What every toolchain backend offers, so compile, upload and the commands never care whether
// arduino-cli or Debian's arduino-builder does the work.
import type { CompilerDiagnostic } from './gcc-diagnostics.js';

export type BuildToolName = 'arduino-cli' | 'arduino-builder';

export interface CompileRequest {
  /** The sketch folder or its main `.ino`. */
  sketch: string;
  fqbn: string;
  /** Where the build goes (default: `buildFolder` in the sketch, kept so rebuilds are incremental). */
  buildPath?: string;
  /** Extra build properties, e.g. `{ 'compiler.cpp.extra_flags': '-DDEBUG' }`. */
  buildProperties?: Record<string, string>;
  /** Extra library folders to search. */
  libraries?: string[];
  /** Each line of the tool's output, as it arrives. */
  onOutput?: (line: string) => void;
  /** Build progress in percent, when the tool reports it. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

export interface MemoryUse {
  used: number;
  /** The board's limit: `upload.maximum_size` for flash, `upload.maximum_data_size` for RAM. */
  max?: number;
}

export interface UsedLibrary {
  name: string;
  version?: string;
  path: string;
}

export interface CompileResult {
  success: boolean;
  tool: BuildToolName;
  /** The sketch folder. */
  sketch: string;
  fqbn: string;
  /** The request's buildPath, else `<sketch>/build/<fqbn with dots>/`: kept between builds so they are incremental. */
  buildPath: string;
  /** The image an upload writes (`.hex` or `.bin`), when the build succeeded. */
  image?: string;
  diagnostics: CompilerDiagnostic[];
  flash?: MemoryUse;
  ram?: MemoryUse;
  libraries: UsedLibrary[];
  /** The tool's output (progress lines left out). */
  output: string;
  /** The command that ran, for the person to repeat it. */
  command: string[];
}

export interface BuildTool {
  readonly name: BuildToolName;
  readonly executable: string;
  /** Arguments given before every command (arduino-cli: the configuration file to use). */
  readonly globalArgs?: readonly string[];
  compile(request: CompileRequest): Promise<CompileResult>;
  /** The board's fully resolved build properties, `{…}` expanded. */
  boardProperties(fqbn: string, sketch?: string): Promise<Record<string, string>>;
}

/** A toolchain that could not run: names the command and what to try. */
export class ToolchainError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolchainError';
  }
}
