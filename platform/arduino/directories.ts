// Where this user's Arduino folders are: the data directory (platforms, tools), the sketchbook
// (its libraries/ and hardware/) and the built-in libraries, decided as arduino-cli decides them
// (internal/cli/configuration: FindConfigFlagsInArgsOrFallbackOnEnv, InjectEnvVars, defaults.go),
// with Arduino IDE 2.x's own configuration file in the place arduino-cli's default would take.
// The context, compile, upload and simulate all ask here, so they look in the same folders.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { join } from '../path-join.js';
import { arduinoDataDir, arduinoSketchbookDir, type SystemPlace } from '../system-paths.js';
import type { Finding } from '../finding.js';

export interface ArduinoDirectories {
  /** `directories.data`: Boards Manager platforms and tools below `packages/`. */
  data: string;
  /** `directories.user`: the sketchbook, whose `libraries/` and `hardware/` the tools search. */
  user: string;
  /** `directories.builtin.libraries`, when something sets it. */
  builtinLibraries?: string;
  /** The arduino-cli.yaml that was read (it exists), if any. */
  configFile?: string;
  /** What set each folder: an environment variable, `<file>:<line>`, or `default`. */
  origin: { data: string; user: string; builtinLibraries?: string };
  warnings: Finding[];
}

/** Every environment variable the answer depends on (for cache keys). */
export const DIRECTORY_VARIABLES = ['ARDUINO_CONFIG_FILE', 'ARDUINO_DIRECTORIES_DATA', 'ARDUINO_DATA_DIR', 'ARDUINO_DIRECTORIES_USER', 'ARDUINO_SKETCHBOOK_DIR', 'ARDUINO_DIRECTORIES_BUILTIN_LIBRARIES', 'HOME'] as const;

export interface DirectoryOptions {
  /** Default: os.homedir(). */
  home?: string;
  /** Default: process.env. */
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

const set = (value: string | undefined): value is string => value !== undefined && value !== '';

/**
 * The configuration file: $ARDUINO_CONFIG_FILE, else arduino-cli.yaml in $ARDUINO_DIRECTORIES_DATA
 * or $ARDUINO_DATA_DIR (as arduino-cli looks), else Arduino IDE 2.x's ~/.arduinoIDE/arduino-cli.yaml
 * when it exists (the IDE runs its arduino-cli with it), else the default data directory's.
 * It need not exist.
 */
export function arduinoConfigFile(options: DirectoryOptions = {}): string {
  const env = options.env ?? process.env;
  const place = systemPlace(options);
  if (set(env.ARDUINO_CONFIG_FILE)) return resolve(env.ARDUINO_CONFIG_FILE);
  if (set(env.ARDUINO_DIRECTORIES_DATA)) return resolve(env.ARDUINO_DIRECTORIES_DATA, 'arduino-cli.yaml');
  if (set(env.ARDUINO_DATA_DIR)) return resolve(env.ARDUINO_DATA_DIR, 'arduino-cli.yaml');
  const ide = join(place.home, '.arduinoIDE', 'arduino-cli.yaml');
  if (existsSync(ide)) return ide;
  return join(arduinoDataDir(place), 'arduino-cli.yaml');
}

function systemPlace(options: DirectoryOptions): SystemPlace {
  return { platform: options.platform ?? process.platform, env: options.env ?? process.env, home: options.home ?? homedir() };
}

/**
 * arduino-cli binds `ARDUINO_<KEY>` for every settings key, matching the variable's name in upper
 * case (the last such variable wins), then applies the old names ARDUINO_DATA_DIR and
 * ARDUINO_SKETCHBOOK_DIR over them.
 */
function fromEnvironment(env: NodeJS.ProcessEnv, names: readonly string[], name: string, oldName?: string): { value: string; origin: string } | undefined {
  let found: { value: string; origin: string } | undefined;
  // Only a name that matches is read: each read of process.env is a call into the C++ environment.
  for (const key of names) {
    if (key.toUpperCase() !== name) continue;
    const value = env[key];
    if (set(value)) found = { value, origin: key };
  }
  if (oldName && set(env[oldName])) found = { value: env[oldName]!, origin: oldName };
  return found;
}

export async function arduinoDirectories(options: DirectoryOptions = {}): Promise<ArduinoDirectories> {
  const env = options.env ?? process.env;
  const place = systemPlace(options);
  const file = arduinoConfigFile(options);
  const warnings: Finding[] = [];
  const fromFile: { data?: string; user?: string; builtinLibraries?: string } = {};
  const lines: { data?: number; user?: number; builtinLibraries?: number } = {};
  const exists = existsSync(file);
  if (exists) {
    // The yaml package takes longer to load than most contexts take to build: only when there is a file.
    const { readYamlFile, yamlMap, yamlString } = await import('./yaml.js');
    const parsed = readYamlFile(file);
    warnings.push(...parsed.warnings);
    const section = yamlMap(yamlMap(parsed.value).directories);
    fromFile.data = yamlString(section.data);
    fromFile.user = yamlString(section.user);
    fromFile.builtinLibraries = yamlString(yamlMap(section.builtin).libraries);
    lines.data = parsed.lineOf(['directories', 'data']);
    lines.user = parsed.lineOf(['directories', 'user']);
    lines.builtinLibraries = parsed.lineOf(['directories', 'builtin', 'libraries']);
  } else if (set(env.ARDUINO_CONFIG_FILE)) {
    warnings.push({ severity: 'warning', code: 'arduino-config-missing', message: `ARDUINO_CONFIG_FILE names ${file}, which does not exist; arduino-cli's default folders are used`, file, suggestion: 'Point ARDUINO_CONFIG_FILE at an existing arduino-cli.yaml (arduino-cli config init --dest-file FILE writes one), or unset it.' });
  }
  const names = Object.keys(env);
  const pick = (key: 'data' | 'user' | 'builtinLibraries', variable: string, oldName: string | undefined, fallback: string | undefined): { value?: string; origin?: string } => {
    const environment = fromEnvironment(env, names, variable, oldName);
    if (environment) return { value: resolve(environment.value), origin: environment.origin };
    const configured = fromFile[key];
    if (configured) return { value: resolve(configured), origin: `${file}${lines[key] ? `:${lines[key]}` : ''}` };
    return fallback === undefined ? {} : { value: fallback, origin: 'default' };
  };
  const data = pick('data', 'ARDUINO_DIRECTORIES_DATA', 'ARDUINO_DATA_DIR', arduinoDataDir(place));
  const user = pick('user', 'ARDUINO_DIRECTORIES_USER', 'ARDUINO_SKETCHBOOK_DIR', arduinoSketchbookDir(place));
  const builtin = pick('builtinLibraries', 'ARDUINO_DIRECTORIES_BUILTIN_LIBRARIES', undefined, undefined);
  return {
    data: data.value!,
    user: user.value!,
    ...(builtin.value ? { builtinLibraries: builtin.value } : {}),
    ...(exists ? { configFile: file } : {}),
    origin: { data: data.origin!, user: user.origin!, ...(builtin.origin ? { builtinLibraries: builtin.origin } : {}) },
    warnings,
  };
}
