// Builds an MPLAB project the way its IDE does. MPLAB X: make in the `.X`
// folder with the configuration, after regenerating the makefiles with MPLAB's
// own prjMakefilesGenerator when they are missing (they are often not
// committed). MPLAB for VS Code: the CMake project the extension generated
// (cmake-build.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import type { Finding } from '../../context-providers/types.js';
import { buildCmakeProject } from './cmake-build.js';
import { parseXcDiagnostics } from './diagnostics.js';
import { findInMplabx } from './mplabx-install.js';
import { resolveTarget } from './project-target.js';

export interface BuildOptions {
  /** The `.X` folder, or the VS Code workspace folder holding `.vscode/*.mplab.json`. */
  project: string;
  configuration?: string;
  /** Make variables given on the command line, e.g. `MP_CC` to choose a compiler; CMake cache variables (`-D`) for VS Code projects. */
  makeVariables?: Record<string, string>;
  /** VS Code projects: build `cmake/<project>/<conf>.production/` instead of `<conf>/`. */
  production?: boolean;
  /** VS Code projects: pack roots for PACK_REPO_PATH; default: MPLAB X's packs and ~/.mchp_packs. */
  packRoots?: string[];
  /** prjMakefilesGenerator(.sh); default: searched in MPLAB X installs and $MPLABX_HOME. */
  generator?: string;
  env?: Record<string, string>;
  signal?: AbortSignal;
  onOutput?: (text: string) => void;
}

export interface BuildResult {
  ok: boolean;
  configuration?: string;
  exitCode?: number;
  command?: string[];
  /** Every command run, in order (VS Code projects: configure, then build). */
  commands?: string[][];
  /** The image the build wrote, when the project says where. */
  image?: string;
  diagnostics: Finding[];
  output: string;
  /** Why the build could not start or failed, phrased for the user. */
  message: string;
}

export async function buildMplabProject(options: BuildOptions): Promise<BuildResult> {
  const target = await resolveTarget(options.project, options.configuration);
  if ('error' in target) return { ok: false, diagnostics: [], output: '', message: target.error };
  const folder = target.project.root;
  const conf = target.configuration.name;
  const output: string[] = [];
  const emit = (text: string): void => {
    output.push(text);
    options.onOutput?.(text);
  };
  for (const note of target.notes) emit(`note: ${note}\n`);
  if (target.project.format === 'vscode') return buildCmakeProject(target.project, target.configuration, options, emit, () => output.join(''));

  const makefiles = [join(folder, 'Makefile'), join(folder, 'nbproject', `Makefile-${conf}.mk`)];
  const missing = makefiles.filter((f) => !existsSync(f));
  if (missing.length > 0) {
    const generator = options.generator ?? (await findMakefileGenerator(options.env ?? {}));
    if (!generator) {
      return {
        ok: false,
        configuration: conf,
        diagnostics: [],
        output: output.join(''),
        message: `cannot build ${folder} (${conf}): ${missing.join(', ')} missing, and MPLAB X's prjMakefilesGenerator was not found (looked in /opt/microchip/mplabx/*/mplab_platform/bin and $MPLABX_HOME). Open the project once in MPLAB X to write its makefiles, or install MPLAB X.`,
      };
    }
    emit(`$ ${generator} ${folder}@${conf}\n`);
    const generated = await execa(generator, [`${folder}@${conf}`], { all: true, reject: false, cancelSignal: options.signal, env: options.env });
    emit(`${generated.all ?? ''}\n`);
    if (generated.exitCode !== 0 || makefiles.some((f) => !existsSync(f))) {
      return { ok: false, configuration: conf, diagnostics: [], output: output.join(''), message: `prjMakefilesGenerator failed for ${folder}@${conf} (exit ${generated.exitCode}); see its output above` };
    }
  }

  const variables = Object.entries(options.makeVariables ?? {}).map(([k, v]) => `${k}=${v}`);
  const command = ['make', '-C', folder, `CONF=${conf}`, ...variables, 'build'];
  emit(`$ ${command.join(' ')}\n`);
  const run = execa(command[0], command.slice(1), { all: true, reject: false, cancelSignal: options.signal, env: options.env, stdin: 'ignore' });
  run.all?.on('data', (chunk: Buffer) => emit(chunk.toString('utf8')));
  const result = await run;
  const text = output.join('');
  const diagnostics = parseXcDiagnostics(text, folder);
  if (result.isCanceled) return { ok: false, configuration: conf, exitCode: result.exitCode, command, diagnostics, output: text, message: 'build cancelled' };
  if (result.failed && result.exitCode === undefined) {
    return { ok: false, configuration: conf, command, diagnostics, output: text, message: `could not run make: ${result.shortMessage}. Install make (Debian: apt-get install make).` };
  }
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  const ok = result.exitCode === 0;
  return {
    ok,
    configuration: conf,
    exitCode: result.exitCode,
    command,
    diagnostics,
    output: text,
    message: `${ok ? 'built' : 'build failed'}: ${target.project.name} (${conf}), ${errors} error(s), ${warnings} warning(s)${ok ? '' : `, make exit ${result.exitCode}`}`,
  };
}

export function findMakefileGenerator(env: Record<string, string | undefined>): Promise<string | undefined> {
  return findInMplabx(env, join('mplab_platform', 'bin'), ['prjMakefilesGenerator.sh', 'prjMakefilesGenerator.bat']);
}
