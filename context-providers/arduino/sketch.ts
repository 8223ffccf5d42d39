// An Arduino sketch on disk: a folder holding <foldername>.ino (or .pde), its other source files,
// and the optional sketch.yaml with default_fqbn, default_port and profiles.
import { existsSync, readdirSync } from 'node:fs';
import { join } from '../../platform/path-join.js';
import type { Finding } from '../types.js';
import { isDir } from '../../platform/arduino/folders.js';
import { sketchMainFile } from './sketch-main.js';

export interface SketchProfile {
  name: string;
  fqbn?: string;
  fqbnLine?: number;
  programmer?: string;
  platforms: string[];
  libraries: string[];
}

export interface SketchProject {
  dir: string;
  /** The main `.ino`. */
  main: string;
  /** Every source file the build compiles: .ino/.pde/.c/.cpp/.S/.h in the folder, and src/ recursively. */
  files: string[];
  yaml?: {
    file: string;
    defaultFqbn?: string;
    defaultFqbnLine?: number;
    defaultPort?: string;
    defaultProgrammer?: string;
    defaultProfile?: string;
    profiles: SketchProfile[];
  };
  warnings: Finding[];
}

const SOURCE = /\.(ino|pde|c|cpp|cc|cxx|S|h|hh|hpp|tpp|ipp)$/;
const HEADER = /\.(h|hh|hpp|tpp|ipp)$/;

/** The files the build compiles (.ino, .c, .cpp, .S …): a header is read only where one of them includes it. */
export function compiledUnits(files: string[]): string[] {
  return files.filter((file) => !HEADER.test(file));
}

/** The main sketch file when `dir` is a sketch folder, else undefined. */
export { sketchMainFile };

/** `main` defaults to the folder's own Name.ino; a lone .ino of another name can be given (it cannot be compiled as it is). */
export async function readSketch(dir: string, main = sketchMainFile(dir)): Promise<SketchProject | undefined> {
  if (!main) return undefined;
  const files = [main, ...listSources(dir, false).filter((file) => file !== main)];
  const src = join(dir, 'src');
  if (isDir(src)) files.push(...listSources(src, true));
  const project: SketchProject = { dir, main, files, warnings: [] };
  const yamlFile = ['sketch.yaml', 'sketch.yml'].map((name) => join(dir, name)).find((file) => existsSync(file));
  if (yamlFile) project.yaml = await readSketchYaml(yamlFile, project.warnings);
  return project;
}

async function readSketchYaml(file: string, warnings: Finding[]): Promise<NonNullable<SketchProject['yaml']>> {
  // The yaml package takes longer to load than most contexts take to build: only when there is a file.
  const { readYamlFile, yamlMap, yamlString } = await import('../../platform/arduino/yaml.js');
  const parsed = readYamlFile(file);
  warnings.push(...parsed.warnings);
  const root = yamlMap(parsed.value);
  const profiles: SketchProfile[] = Object.entries(yamlMap(root.profiles)).map(([name, value]) => {
    const profile = yamlMap(value);
    const entries = (list: unknown, key: string): string[] =>
      Array.isArray(list) ? list.map((item) => (typeof item === 'string' ? item : yamlString(yamlMap(item)[key]) ?? '')).filter(Boolean) : [];
    return {
      name,
      fqbn: yamlString(profile.fqbn),
      fqbnLine: parsed.lineOf(['profiles', name, 'fqbn']),
      programmer: yamlString(profile.programmer),
      platforms: entries(profile.platforms, 'platform'),
      libraries: entries(profile.libraries, 'library'),
    };
  });
  return {
    file,
    defaultFqbn: yamlString(root.default_fqbn),
    defaultFqbnLine: parsed.lineOf(['default_fqbn']),
    defaultPort: yamlString(root.default_port),
    defaultProgrammer: yamlString(root.default_programmer),
    defaultProfile: yamlString(root.default_profile),
    profiles,
  };
}

function listSources(dir: string, recursive: boolean): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (isDir(path)) {
      if (recursive) files.push(...listSources(path, true));
    } else if (SOURCE.test(entry)) {
      files.push(path);
    }
  }
  return files;
}
