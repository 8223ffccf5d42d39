// Picks the toolchain: arduino-cli first (on PATH, or the one Arduino IDE 2.x bundles), then
// arduino-builder (Arduino IDE 1.8, Debian's package); otherwise says what to install.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from '../../platform/path-join.js';
import { arduinoConfigFile } from '../../platform/arduino/directories.js';
import { findExecutable } from '../executables.js';
import { ArduinoBuilder, debianLayout, type ArduinoBuilderLayout } from './arduino-builder.js';
import { ArduinoCli } from './arduino-cli.js';
import { ToolchainError, type BuildTool } from './build-tool.js';

/** Where Arduino IDE 2.x keeps the arduino-cli it runs, below its install folder. */
const IDE_BUNDLED_CLI = join('resources', 'app', 'lib', 'backend', 'resources');

/** Set by the Arduino IDE extension: the install folder of the IDE it runs in. */
export const IDE_FOLDER_VARIABLE = 'BOARDBRIDGE_ARDUINO_IDE';

export function defaultIdeFolders(env: NodeJS.ProcessEnv = process.env): string[] {
  const home = homedir();
  return [
    ...(env[IDE_FOLDER_VARIABLE] ? [env[IDE_FOLDER_VARIABLE]] : []),
    '/opt/arduino-ide',
    '/opt/Arduino IDE',
    '/usr/share/arduino-ide',
    join(home, '.local', 'share', 'arduino-ide'),
    join(home, 'Applications', 'arduino-ide'),
    '/Applications/Arduino IDE.app/Contents',
    join(process.env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'Programs', 'Arduino IDE'),
  ];
}

export interface DetectOptions {
  /** Search path; defaults to the PATH environment variable. */
  path?: string;
  /** Arduino IDE 2.x install folders to look into; defaults to the usual places. */
  ideFolders?: string[];
  /** Home folder, for Arduino IDE 2.x's own arduino-cli configuration; defaults to os.homedir(). */
  home?: string;
  /** Folders arduino-builder is given; defaults to Debian's and the configured sketchbook's. */
  builderLayout?: ArduinoBuilderLayout;
}



/** The first usable toolchain, or a ToolchainError naming what to install. */
export function detectBuildTool(options: DetectOptions = {}): BuildTool {
  // The configuration the context reads (the IDE's own, where arduino-cli alone would not look) is
  // the one every arduino-cli run is given, so both see the same data folder and sketchbook.
  const configFile = arduinoConfigFile({ home: options.home ?? homedir() });
  const cliOptions = existsSync(configFile) ? { configFile } : {};
  const onPath = findExecutable('arduino-cli', options.path);
  if (onPath) return new ArduinoCli(onPath, cliOptions);
  const ideFolders = options.ideFolders ?? defaultIdeFolders();
  for (const folder of ideFolders) {
    const bundled = findExecutable('arduino-cli', join(folder, IDE_BUNDLED_CLI));
    if (bundled) return new ArduinoCli(bundled, cliOptions);
  }
  const builder = findExecutable('arduino-builder', options.path);
  if (builder) return new ArduinoBuilder(builder, options.builderLayout ?? debianLayout());
  throw new ToolchainError(
    'no Arduino toolchain found: install arduino-cli (https://arduino.github.io/arduino-cli/) or Arduino IDE 2.x, ' +
      'or on Debian/Ubuntu `apt install arduino-builder arduino-core-avr`; looked on PATH and in ' +
      ideFolders.join(', '),
  );
}
