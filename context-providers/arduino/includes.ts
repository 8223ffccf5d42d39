// Resolving a sketch's #includes the way arduino-cli's library resolver does: the sketch's own
// files first, then the core and variant, then libraries ranked by architecture, name match and
// location (user > platform > referenced platform > built-in). Unresolved and incompatible
// includes become findings.
import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { join } from '../../platform/path-join.js';
import type { Finding, LibraryRef } from '../types.js';
import { tokenize } from './c-tokens.js';
import { compileFlags } from './compile-flags.js';
import { satisfies } from './library-depends.js';
import { preprocess, type Macro } from './preprocessor.js';
import { libraryIndexName } from './library-index.js';
import { isCompatible, LOCATION_PRIORITY, type Library } from './libraries.js';
import type { ResolvedBoard } from '../../platform/arduino/resolve.js';
import { readRegularFileSync } from '../../platform/regular-file.js';

export interface IncludeDirective {
  header: string;
  system: boolean;
  file: string;
  line: number;
}

export interface IncludeResolution {
  libraries: LibraryRef[];
  /** Libraries the build would compile, in first-use order. */
  used: Library[];
  findings: Finding[];
  /** Library headers read while following includes. */
  files: string[];
}

// Headers of the C and C++ standard libraries: never an Arduino library, always the toolchain's.
const STANDARD_HEADERS = new Set(
  ('assert ctype errno float inttypes iso646 limits locale math setjmp signal stdarg stdbool stddef stdint stdio stdlib string time wchar wctype ' +
    'alloca fcntl unistd').split(' ').map((name) => `${name}.h`).concat(
    'algorithm array atomic bitset cassert cctype cerrno cfloat chrono cinttypes climits cmath cstdarg cstddef cstdint cstdio cstdlib cstring ctime deque functional initializer_list iterator limits list map memory new numeric optional queue set sstream stack string tuple type_traits utility vector'.split(' '),
  ),
);

// Debian's packaged GCC toolchains: their include folders name the C library's own headers.
const REFERENCE_TOOLCHAIN_DIRS = (): string[] => ['/usr/include/newlib', '/usr/lib/avr/include', ...gccIncludeDirs('/usr/lib/gcc/arm-none-eabi')];

function gccIncludeDirs(root: string): string[] {
  try {
    return readdirSync(root).map((version) => join(root, version, 'include'));
  } catch {
    return [];
  }
}

/** The #include lines of a file, found with the tokenizer so comments and strings never match. */
export function includeDirectives(file: string, text: string): IncludeDirective[] {
  const tokens = tokenize(text, file);
  const result: IncludeDirective[] = [];
  for (let index = 0; index < tokens.length - 2; index++) {
    const hash = tokens[index];
    if (!hash.bol || hash.text !== '#' || tokens[index + 1].text !== 'include' || tokens[index + 1].bol) continue;
    const target = tokens[index + 2];
    if (target.bol) continue;
    if (target.kind === 'string') {
      result.push({ header: target.text.slice(1, -1), system: false, file, line: hash.line });
    } else if (target.text === '<') {
      let end = index + 3;
      let header = '';
      while (end < tokens.length && tokens[end].text !== '>' && !tokens[end].bol) header += tokens[end++].text;
      result.push({ header, system: true, file, line: hash.line });
    }
  }
  return result;
}

/** Toolchain include folders next to the board's compiler (avr-libc and friends). */
export function toolchainIncludeDirs(board: ResolvedBoard): string[] {
  const compilerPath = board.expanded('compiler.path') ?? '';
  const candidates = compilerPath ? ['../avr/include', '../lib/avr/include', '../arm-none-eabi/include', '../xtensa-lx106-elf/include'].map((rel) => join(compilerPath, rel)) : [];
  return candidates.filter((dir) => existsSync(dir));
}

// arduino-cli's ComputePriority: architecture fit, then how well the name matches the header,
// then location.
function priority(library: Library, header: string, architecture: string): number {
  const base = header.replace(/\.[^.]*$/, '').toLowerCase();
  const name = library.name.toLowerCase().replace(/[ _.-]/g, '');
  const dirName = library.dirName.toLowerCase().replace(/[ _.-]/g, '');
  const wanted = base.replace(/[ _.-]/g, '');
  let score = 0;
  if (library.architectures.includes(architecture)) score += 1010;
  else if (library.architectures.includes('*')) score += 1000;
  if (name === wanted && dirName === wanted) score += 700;
  else if (name === wanted || dirName === wanted) score += 600;
  else if (dirName === `${wanted}master`) score += 500;
  else if (name.startsWith(wanted) || dirName.startsWith(wanted)) score += 400;
  else if (name.endsWith(wanted) || dirName.endsWith(wanted)) score += 300;
  else if (name.includes(wanted) || dirName.includes(wanted)) score += 200;
  return score + LOCATION_PRIORITY[library.location];
}

/**
 * The #include lines the compiler would act on for this board: those on active lines, with the
 * board's macros (the variant's, the recipe's -D flags) deciding #if, #ifdef and __has_include.
 */
export function activeIncludes(file: string, macros: ReadonlyMap<string, Macro>, includeDirs: string[]): IncludeDirective[] {
  // Only the directives are read: the file's other lines are passed over untokenized.
  const result = preprocess([file], { defines: {}, macros, includeDirs, follow: () => false, tokensOf: () => false });
  return result.includes.map((include) => ({ header: include.header, system: include.system, file: include.file, line: include.line }));
}

export interface IncludeOptions {
  /** The board's macros; without them every #include line counts, as if each #if were true. */
  macros?: ReadonlyMap<string, Macro>;
}

function missingDir(dir: string): boolean {
  return !existsSync(dir);
}

/**
 * `libraries` is the installed libraries, or a function that scans for them: it is called the
 * first time an include is found in none of the sketch's, core's or variant's folders, as
 * arduino-cli looks in libraries only for those; a sketch that includes none needs no scan.
 */
export function resolveIncludes(sketchFiles: string[], board: ResolvedBoard, libraries: Library[] | (() => Library[]), options: IncludeOptions = {}): IncludeResolution {
  const installed = typeof libraries === 'function' ? libraries : () => libraries;
  const resolution: IncludeResolution = { libraries: [], used: [], findings: [], files: [] };
  const toolchain = toolchainIncludeDirs(board);
  // The recipe's own -I folders (core/api/deprecated, the SDK's include tree, mbed's includes.txt).
  const recipeDirs = compileFlags(board).includeDirs;
  const searchDirs = [...recipeDirs.filter((dir) => !missingDir(dir)), ...toolchain];
  // A header that is found nowhere is only known to be missing when every folder the compiler
  // would search is installed: the toolchain, and each -I folder of the recipe.
  const compilerPath = board.expanded('compiler.path') ?? '';
  // Without the board's compiler folder, an installed GCC toolchain's headers (Debian's newlib,
  // arm-none-eabi's and avr-libc's) say which names a C library has: one none of them has is a
  // library's, missing whatever the toolchain. A `{build.path}` folder exists only during a build.
  const compilerMissing = compilerPath !== '' && missingDir(compilerPath);
  const referenceToolchain = compilerMissing ? REFERENCE_TOOLCHAIN_DIRS().filter((dir) => !missingDir(dir)) : [];
  const notInstalled = [...(compilerMissing && referenceToolchain.length === 0 ? [`the compiler folder ${compilerPath}`] : []), ...recipeDirs.filter((dir) => !dir.includes('{') && missingDir(dir)).slice(0, 2).map((dir) => `the include folder ${dir}`)];
  const seenHeaders = new Set<string>();
  const queue: IncludeDirective[] = [];
  const directivesOf = (file: string): IncludeDirective[] => (options.macros ? activeIncludes(file, options.macros, [board.corePath, ...(board.variantPath ? [board.variantPath] : []), ...searchDirs]) : includeDirectives(file, safeRead(file)));
  for (const file of sketchFiles) queue.push(...directivesOf(file));
  // The sketch's own headers count as the sketch where a compiled file (or one of them) includes them.
  const sketchOwn = new Set(sketchFiles);

  for (let next = queue.shift(); next; next = queue.shift()) {
    const directive = next;
    const fromSketch = sketchOwn.has(directive.file);
    const beside = join(dirname(directive.file), directive.header);
    if (!directive.system && existsSync(beside)) {
      if (fromSketch) {
        resolution.libraries.push({ include: directive.header, path: beside, location: 'sketch', source: { file: directive.file, line: directive.line } });
        if (!sketchOwn.has(beside)) {
          sketchOwn.add(beside);
          queue.push(...directivesOf(beside));
        }
      }
      continue;
    }
    if (seenHeaders.has(directive.header)) continue;
    seenHeaders.add(directive.header);
    const ref: LibraryRef = { include: directive.header, source: { file: directive.file, line: directive.line } };
    const local = [['core', board.corePath], ['variant', board.variantPath]].find(([, dir]) => dir && existsSync(join(dir, directive.header)));
    if (local) {
      if (fromSketch) resolution.libraries.push({ ...ref, location: local[0], path: join(local[1]!, directive.header) });
      continue;
    }
    const candidates = installed().filter((library) => library.headers.includes(directive.header));
    if (candidates.length === 0) {
      const inPlatform = recipeDirs.find((dir) => existsSync(join(dir, directive.header)));
      if (inPlatform) {
        if (fromSketch) resolution.libraries.push({ ...ref, location: inPlatform.startsWith(board.platformPath) || inPlatform.startsWith(board.corePlatformPath) ? 'core' : 'toolchain', path: join(inPlatform, directive.header) });
        continue;
      }
      const inToolchain = [...toolchain, ...referenceToolchain].some((dir) => existsSync(join(dir, directive.header)));
      if (inToolchain || STANDARD_HEADERS.has(directive.header) || directive.header.includes('/')) {
        if (fromSketch) resolution.libraries.push({ ...ref, location: 'toolchain' });
        continue;
      }
      resolution.libraries.push(ref);
      // A header the library index names is that library's: missing whatever SDK folder is absent.
      const indexed = libraryIndexName(directive.header);
      if (notInstalled.length > 0 && !indexed) {
        resolution.findings.push({
          severity: 'info',
          code: 'include-unchecked',
          message: `${directive.header}: not found in the installed libraries; not checked further because ${notInstalled.join(' and ')} ${notInstalled.length > 1 ? 'are' : 'is'} not installed here`,
          file: directive.file,
          line: directive.line,
        });
        continue;
      }
      resolution.findings.push({
        severity: 'error',
        code: 'include-unresolved',
        message: `${directive.header}: no installed library provides this header (${board.fqbn})`,
        file: directive.file,
        line: directive.line,
        suggestion: indexed
          ? `arduino-cli lib install "${indexed.library}" (the ${indexed.library} library's ${directive.header}; its library.properties at ${indexed.source.repository}@${indexed.source.commit.slice(0, 7)}${indexed.source.file === 'library.properties' ? '' : `:${indexed.source.file}`})`
          : `Install the library that provides ${directive.header}: find its name with arduino-cli lib search ${directive.header.replace(/\.h$/, '')}, then arduino-cli lib install "<name>"; or check the spelling.`,
      });
      continue;
    }
    const ranked = [...candidates].sort((a, b) => priority(b, directive.header, board.architecture) - priority(a, directive.header, board.architecture));
    const compatible = ranked.filter((library) => isCompatible(library, board.architecture));
    const chosen = compatible[0] ?? ranked[0];
    resolution.libraries.push({ ...ref, name: chosen.name, version: chosen.version, path: chosen.dir, location: chosen.location });
    if (!resolution.used.includes(chosen)) resolution.used.push(chosen);
    if (!isCompatible(chosen, board.architecture)) {
      resolution.findings.push({
        severity: 'warning',
        code: 'library-incompatible',
        message: `${chosen.name} claims to run on ${chosen.architectures.join(', ')}; this board is ${board.architecture} and the library may not compile`,
        file: directive.file,
        line: directive.line,
        suggestion: `Use a library for ${board.architecture}, or check ${chosen.source?.file ?? chosen.dir}.`,
      });
    }
    // Follow the library's own includes so the libraries it needs are found too.
    const headerFile = join(chosen.sourceDir, directive.header);
    resolution.files.push(headerFile);
    queue.push(...directivesOf(headerFile));
  }
  if (resolution.used.length > 0) resolution.findings.push(...dependencyFindings(resolution.used, installed()));
  return resolution;
}

function dependencyFindings(used: Library[], installed: Library[]): Finding[] {
  const findings: Finding[] = [];
  // `depends=` is what Library Manager installs with a library; a library bundled with the platform
  // (or the IDE) is never installed that way and compiles with the platform's own libraries, whatever
  // they are named (arduino-pico's WiFi names LWIPEthernet, its folder lwIP_Ethernet says lwIP-Ethernet).
  for (const library of used.filter((entry) => entry.location === 'user')) {
    for (const dependency of library.depends) {
      const candidates = installed.filter((other) => other.name === dependency.name);
      const fits = candidates.some((other) => !dependency.constraint || (other.version !== undefined && satisfies(other.version, dependency.constraint)));
      if (fits) continue;
      const found = candidates.map((other) => other.version ?? '?').join(', ');
      findings.push({
        severity: 'warning',
        code: 'library-dependency',
        message: `${library.name} depends on ${dependency.name}${dependency.text ? ` (${dependency.text})` : ''}, ${found ? `but only version ${found} is installed` : 'which is not installed'}`,
        file: library.source?.file,
        line: library.dependsLine,
        suggestion: `arduino-cli lib install "${dependency.name}"`,
      });
    }
  }
  return findings;
}

function safeRead(file: string): string {
  try {
    return readRegularFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
