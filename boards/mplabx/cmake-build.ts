// Builds an MPLAB for VS Code project the way the extension does: the CMake
// project it generated for the configuration (`cmake --preset` in
// cmake/<project>/<conf>/, then `cmake --build` of the preset's binaryDir).
// The generated toolchain.cmake names the compilers of the machine it was
// generated on; where those do not exist here, the same compiler is looked
// for in this machine's Microchip install folder and on PATH and passed as a
// cache variable, as is the pack folder rule.cmake's -mdfp flags point into.
import { existsSync } from 'node:fs';
import { delimiter, relative } from 'node:path';
import { join } from '../../platform/path-join.js';
import { loadExeca } from '../packages.js';
import { defaultPackRoots } from '../../context-providers/mplabx/packs.js';
import { toolchainId } from '../../context-providers/mplabx/toolchain-provider.js';
import type { MplabConfiguration, MplabProject } from '../../context-providers/mplabx/index.js';
import type { BuildOptions, BuildResult } from './build-types.js';
import { cmakeFolder, generatedFromCurrent, readGeneratedCmake, type GeneratedCmakeProject } from './cmake-project.js';
import { parseXcDiagnostics } from './diagnostics.js';

export async function buildCmakeProject(project: MplabProject, conf: MplabConfiguration, options: BuildOptions, emit: (text: string) => void, output: () => string): Promise<BuildResult> {
  const fail = (message: string, extra: Partial<BuildResult> = {}): BuildResult => ({ ok: false, configuration: conf.name, diagnostics: [], output: output(), message, ...extra });
  const folder = cmakeFolder(project.root, project.name, conf.name, options.production === true);
  const cmake = await readGeneratedCmake(folder);
  if ('error' in cmake) return fail(`cannot build ${project.name} (${conf.name}): ${cmake.error}. ${howTheExtensionGenerates(project, conf)}`);
  const mplabJson = project.inputs[0];
  if ((await generatedFromCurrent(cmake, mplabJson)) === false) {
    emit(`note: ${relative(project.root, folder)} was generated from an earlier ${relative(project.root, mplabJson)}; the MPLAB extension regenerates it on its next build in VS Code. Building the CMake files as they are.\n`);
  }
  const missing = cmake.sources.filter((s) => !existsSync(s.path));
  if (missing.length > 0) {
    const fileCmake = join(folder, '.generated', 'file.cmake');
    return fail(
      `cannot build ${project.name} (${conf.name}): ${missing.length} of the ${cmake.sources.length} sources the generated CMake files list do not exist: ${missing
        .slice(0, 6)
        .map((s) => `${relative(project.root, s.path)} (${relative(project.root, fileCmake)}:${s.line})`)
        .join(', ')}${missing.length > 6 ? ` and ${missing.length - 6} more` : ''}. Restore them, or rebuild in VS Code so the extension regenerates the CMake files from the file sets.`,
    );
  }
  const env = { ...process.env, ...options.env };
  const given = options.makeVariables ?? {};
  const definitions: Record<string, string> = { ...given };
  for (const tool of cmake.tools) {
    if (tool.name in given || existsSync(tool.path)) continue;
    const found = findCompilerTool(tool.path, conf, env);
    if (found) definitions[tool.name] = found;
    else if (tool.name === 'CMAKE_C_COMPILER') {
      return fail(
        `cannot build ${project.name} (${conf.name}): the compiler the generated CMake files name (${tool.path}, .generated/toolchain.cmake:${tool.line}) is not on this machine, and ${toolBase(tool.path)} is not in ${compilerFolder(conf)} or on PATH. Install ${conf.toolchain ?? 'the compiler'}${conf.toolchainVersion ? ` ${conf.toolchainVersion}` : ''}, or pass CMAKE_C_COMPILER=/path/to/${toolBase(tool.path)}.`,
      );
    } else emit(`note: ${tool.name} (${tool.path}) is not on this machine and ${toolBase(tool.path)} was not found; a build step that needs it would fail\n`);
  }
  if (!('PACK_REPO_PATH' in given) && cmake.packRepoPath && !existsSync(cmake.packRepoPath)) {
    const packRoot = await packRootHolding(conf, options.packRoots);
    if (packRoot) definitions.PACK_REPO_PATH = packRoot;
    else emit(`note: the device pack ${conf.packs.map((p) => `${p.name} ${p.version ?? ''}`.trim()).join(', ') || '(none named)'} is not installed here; the compiler's -mdfp will point at ${cmake.packRepoPath}, which does not exist\n`);
  }
  if (cmake.generator === 'Ninja' && !onPath('ninja', env)) {
    return fail(`cannot build ${project.name} (${conf.name}): ${relative(project.root, cmake.presetsFile)} uses the Ninja generator and ninja is not on PATH. Install it (Debian: apt-get install ninja-build).`);
  }

  const configure = ['cmake', '--preset', cmake.preset, ...Object.entries(definitions).map(([k, v]) => `-D${k}=${v}`)];
  const configured = await run(configure, cmake.folder, options, emit);
  if ('error' in configured) return fail(configured.error, { command: configure });
  if (configured.exitCode !== 0 || configured.canceled) {
    const diagnostics = parseXcDiagnostics(output(), cmake.folder);
    return fail(configured.canceled ? 'build cancelled' : `cmake --preset ${cmake.preset} failed (exit ${configured.exitCode}) in ${cmake.folder}; see its output above`, { command: configure, exitCode: configured.exitCode, diagnostics });
  }
  const build = ['cmake', '--build', cmake.binaryDir];
  const built = await run(build, cmake.folder, options, emit);
  if ('error' in built) return fail(built.error, { command: build });
  const diagnostics = parseXcDiagnostics(output(), cmake.binaryDir);
  if (built.canceled) return fail('build cancelled', { command: build, exitCode: built.exitCode, diagnostics });
  const ok = built.exitCode === 0;
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  const image = imageOf(cmake, project, conf);
  return {
    ok,
    configuration: conf.name,
    exitCode: built.exitCode,
    command: build,
    commands: [configure, build],
    diagnostics,
    output: output(),
    ...(image ? { image } : {}),
    message: `${ok ? 'built' : 'build failed'}: ${project.name} (${conf.name}${options.production ? ', production' : ''}), ${errors} error(s), ${warnings} warning(s)${ok ? (image ? `, image ${relative(project.root, image)}` : '') : `, cmake --build exit ${built.exitCode}`}`,
  };
}

/** What to do when cmake/<project>/<conf>/ is not there: the extension writes it, boardbridge does not. */
export function howTheExtensionGenerates(project: MplabProject, conf: MplabConfiguration): string {
  return `The MPLAB extension for VS Code writes cmake/${project.name}/${conf.name}/ (CMakePresets.json, CMakeLists.txt, .generated/*.cmake) from .vscode/${project.name}.mplab.json each time it builds the project: open ${project.root} in VS Code with the MPLAB extensions, build configuration "${conf.name}" once, and keep the cmake/ folder (it may be committed); boardbridge runs what the extension generated and does not generate it itself`;
}

function imageOf(cmake: GeneratedCmakeProject, project: MplabProject, conf: MplabConfiguration): string | undefined {
  if (cmake.image) return cmake.image;
  return conf.imagePath ? join(project.root, conf.imagePath) : undefined;
}

async function run(command: string[], cwd: string, options: BuildOptions, emit: (text: string) => void): Promise<{ exitCode?: number; canceled: boolean } | { error: string }> {
  emit(`$ (cd ${cwd} && ${command.join(' ')})\n`);
  const execa = await loadExeca();
  const child = execa(command[0], command.slice(1), { cwd, all: true, reject: false, cancelSignal: options.signal, env: options.env, stdin: 'ignore' });
  child.all?.on('data', (chunk: Buffer) => emit(chunk.toString('utf8')));
  const result = await child;
  if (result.failed && result.exitCode === undefined && !result.isCanceled) {
    return { error: `could not run ${command[0]}: ${result.shortMessage}. Install CMake 3.25 or newer (Debian: apt-get install cmake ninja-build).` };
  }
  return { exitCode: result.exitCode, canceled: result.isCanceled };
}

function toolBase(path: string): string {
  return (path.split(/[\\/]+/).pop() ?? path).replace(/\.exe$/i, '');
}

// Microchip's installers put compilers in /opt/microchip/<xc16>/v<2.10>/bin on Linux and macOS.
function compilerFolder(conf: MplabConfiguration): string {
  const id = toolchainId(conf.toolchain ?? '');
  return join('/opt/microchip', id, conf.toolchainVersion ? `v${conf.toolchainVersion}` : '<version>', 'bin');
}

function findCompilerTool(path: string, conf: MplabConfiguration, env: NodeJS.ProcessEnv): string | undefined {
  const base = toolBase(path);
  const installed = join(compilerFolder(conf), base);
  if (existsSync(installed)) return installed;
  return onPath(base, env);
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

// The pack root (`<root>/<vendor>/<pack>/<version>`) holding the configuration's first pack, for PACK_REPO_PATH.
async function packRootHolding(conf: MplabConfiguration, roots: string[] | undefined): Promise<string | undefined> {
  const pack = conf.packs[0];
  if (!pack) return undefined;
  for (const root of roots ?? (await defaultPackRoots())) {
    if (existsSync(join(root, pack.vendor ?? 'Microchip', pack.name, pack.version ?? ''))) return root;
  }
  return undefined;
}
