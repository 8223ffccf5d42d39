// arduino-cli's JSON output in both shapes: 0.35.x printed bare arrays, 1.0 (May 2024) wrapped
// lists in objects (`detected_ports`, `installed_libraries`, `platforms`) and added
// `builder_result.diagnostics`. Everything is read defensively: a field missing is undefined.
import { parseGccDiagnostics, type CompilerDiagnostic } from './gcc-diagnostics.js';
import type { MemoryUse, UsedLibrary } from './build-tool.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The array itself (0.35) or the named field of the wrapper object (≥1.0). */
function unwrap(json: unknown, field: string): unknown[] {
  return Array.isArray(json) ? json : isObject(json) ? list(json[field]) : [];
}

export interface DetectedPort {
  address: string;
  label?: string;
  protocol?: string;
  vid?: string;
  pid?: string;
  serialNumber?: string;
  boards: Array<{ name: string; fqbn?: string }>;
}

export function detectedPorts(json: unknown): DetectedPort[] {
  return unwrap(json, 'detected_ports').filter(isObject).map((entry) => {
    const port = isObject(entry.port) ? entry.port : entry;
    const properties = isObject(port.properties) ? port.properties : {};
    return {
      address: text(port.address) ?? '',
      label: text(port.label),
      protocol: text(port.protocol),
      vid: text(properties.vid),
      pid: text(properties.pid),
      serialNumber: text(properties.serialNumber),
      boards: list(entry.matching_boards ?? entry.boards)
        .filter(isObject)
        .map((board) => ({ name: text(board.name) ?? '', fqbn: text(board.fqbn) })),
    };
  });
}

export interface InstalledLibrary {
  name: string;
  version?: string;
  installDir?: string;
  location?: string;
}

export function installedLibraries(json: unknown): InstalledLibrary[] {
  return unwrap(json, 'installed_libraries').filter(isObject).map((entry) => {
    const library = isObject(entry.library) ? entry.library : entry;
    return {
      name: text(library.name) ?? '',
      version: text(library.version),
      installDir: text(library.install_dir),
      location: text(library.location),
    };
  });
}

export interface InstalledPlatform {
  id: string;
  installed?: string;
  latest?: string;
  name?: string;
}

export function installedPlatforms(json: unknown): InstalledPlatform[] {
  return unwrap(json, 'platforms').filter(isObject).map((platform) => {
    const installed = text(platform.installed_version) ?? text(platform.installed);
    const releases = isObject(platform.releases) ? platform.releases : {};
    const release = installed && isObject(releases[installed]) ? releases[installed] : {};
    return {
      id: text(platform.id) ?? '',
      installed,
      latest: text(platform.latest_version) ?? text(platform.latest),
      name: text(platform.name) ?? text(release.name),
    };
  });
}

/** `build_properties: ["k=v", …]` from `board details --show-properties=expanded --json`. */
export function buildProperties(json: unknown): Record<string, string> {
  const properties: Record<string, string> = {};
  const entries = isObject(json) ? list(json.build_properties) : [];
  for (const entry of entries) {
    const line = text(entry);
    const equals = line?.indexOf('=') ?? -1;
    if (line && equals > 0) properties[line.slice(0, equals)] = line.slice(equals + 1);
  }
  return properties;
}

export interface CliCompileOutcome {
  success: boolean;
  output: string;
  buildPath?: string;
  diagnostics: CompilerDiagnostic[];
  flash?: MemoryUse;
  ram?: MemoryUse;
  libraries: UsedLibrary[];
}

export function compileOutcome(json: unknown): CliCompileOutcome {
  const root = isObject(json) ? json : {};
  const builder = isObject(root.builder_result) ? root.builder_result : {};
  const compilerErr = text(root.compiler_err) ?? '';
  const sections = list(builder.executable_sections_size).filter(isObject);
  const section = (name: string): MemoryUse | undefined => {
    const found = sections.find((entry) => entry.name === name);
    if (!found || typeof found.size !== 'number') return undefined;
    return typeof found.max_size === 'number' && found.max_size > 0 ? { used: found.size, max: found.max_size } : { used: found.size };
  };
  const reported = list(builder.diagnostics).filter(isObject);
  return {
    success: root.success === true,
    output: [text(root.compiler_out), compilerErr].filter(Boolean).join('\n'),
    buildPath: text(builder.build_path),
    // 0.35 had no diagnostics field: extract them from gcc's text as 1.0 does.
    diagnostics: reported.length > 0 ? reported.map(cliDiagnostic) : parseGccDiagnostics(compilerErr),
    flash: section('text'),
    ram: section('data'),
    libraries: list(builder.used_libraries)
      .filter(isObject)
      .map((library) => ({
        name: text(library.name) ?? '',
        version: text(library.version) || undefined,
        path: text(library.install_dir) ?? text(library.source_dir) ?? '',
      })),
  };
}

function cliDiagnostic(entry: Json): CompilerDiagnostic {
  const severity = text(entry.severity)?.toUpperCase();
  const diagnostic: CompilerDiagnostic = {
    severity: severity === 'WARNING' || severity === 'FATAL' ? severity : 'ERROR',
    message: text(entry.message) ?? '',
    file: text(entry.file) ?? '',
    line: typeof entry.line === 'number' ? entry.line : 0,
    col: typeof entry.column === 'number' ? entry.column : typeof entry.col === 'number' ? entry.col : 0,
  };
  const context = list(entry.context).filter(isObject);
  if (context.length > 0) {
    diagnostic.context = context.map((item) => ({
      message: text(item.message) ?? '',
      file: text(item.file) ?? '',
      ...(typeof item.line === 'number' ? { line: item.line } : {}),
    }));
  }
  const notes = list(entry.notes ?? entry.suggestions).filter(isObject);
  if (notes.length > 0) {
    diagnostic.suggestions = notes.map((note) => ({
      message: text(note.message) ?? '',
      file: text(note.file) ?? '',
      line: typeof note.line === 'number' ? note.line : 0,
      col: typeof note.column === 'number' ? note.column : typeof note.col === 'number' ? note.col : 0,
    }));
  }
  return diagnostic;
}
