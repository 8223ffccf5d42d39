// Where a sketch lives and where its build goes: inside the sketch, per board, as arduino-cli's
// `--export-binaries` does, so rebuilds are incremental and no temp folders pile up.
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { join } from '../../platform/path-join.js';
import { boardbridgeCacheDir } from '../../platform/system-paths.js';
import { ToolchainError } from './build-tool.js';

export interface SketchLocation {
  dir: string;
  /** `<dir>/<name>.ino` */
  main: string;
  name: string;
}

export function locateSketch(path: string): SketchLocation {
  const absolute = resolve(path);
  if (!existsSync(absolute)) throw new ToolchainError(`no sketch at ${absolute}: the path does not exist`);
  const dir = statSync(absolute).isDirectory() ? absolute : dirname(absolute);
  const name = basename(dir);
  const main = join(dir, `${name}.ino`);
  if (!existsSync(main)) {
    throw new ToolchainError(`no sketch at ${dir}: a sketch folder holds a main file named after it (${name}.ino)`);
  }
  return { dir, main, name };
}

export function buildFolder(sketchDir: string, fqbn: string): string {
  return join(sketchDir, 'build', fqbnFolder(fqbn));
}

/**
 * Where a simulation's build goes: the cache (`<boardbridgeCacheDir>/simulate/<name>-<hash of
 * the sketch's path>/<fqbn>`), not the sketch folder, which a simulation leaves as it found it.
 */
export function simulationBuildFolder(sketchDir: string, fqbn: string): string {
  const sketch = `${basename(sketchDir)}-${createHash('sha256').update(resolve(sketchDir)).digest('hex').slice(0, 12)}`;
  return join(boardbridgeCacheDir(), 'simulate', sketch, fqbnFolder(fqbn));
}

const fqbnFolder = (fqbn: string) => fqbn.replace(/:/g, '.').replace(/[^A-Za-z0-9._-]/g, '_');

/** `default_fqbn` and `default_port` from the sketch's sketch.yaml, when it sets them (the YAML reader loads only for a sketch that has one). */
export async function sketchDefaults(sketchDir: string): Promise<{ fqbn?: string; port?: string }> {
  const file = join(sketchDir, 'sketch.yaml');
  if (!existsSync(file)) return {};
  const { readYamlFile, yamlMap, yamlString } = await import('../../platform/arduino/yaml.js');
  const root = yamlMap(readYamlFile(file).value);
  return { fqbn: yamlString(root.default_fqbn), port: yamlString(root.default_port) };
}

/** The image an upload writes: `<name>.ino.hex` for AVR, `.bin` for most ARM cores. */
export function findImage(buildPath: string, sketchName: string): string | undefined {
  return ['hex', 'bin'].map((ext) => join(buildPath, `${sketchName}.ino.${ext}`)).find((file) => existsSync(file));
}
