// Builds an MPLAB project the way its IDE does. MPLAB X: make in the `.X`
// folder with the configuration, after regenerating the makefiles with MPLAB's
// own prjMakefilesGenerator when they are missing (they are often not
// committed). MPLAB for VS Code: the CMake project the extension generated
// (cmake-build.ts).
import { existsSync } from 'node:fs';
import { join } from '../../platform/path-join.js';
import { loadExeca } from '../packages.js';
import type { BuildOptions, BuildResult } from './build-types.js';
import { buildCmakeProject } from './cmake-build.js';
import { parseXcDiagnostics } from './diagnostics.js';
import { findInMplabx } from './mplabx-install.js';
import { resolveTarget } from './project-target.js';

export type { BuildOptions, BuildResult };

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

  const execa = await loadExeca();
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
