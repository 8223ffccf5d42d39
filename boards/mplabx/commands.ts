// `boardbridge build` and `boardbridge program` for MPLAB X and MPLAB for
// VS Code projects, run inside the bridge (terminal/* requests, the CLI, the
// MCP tools) through one implementation.
import { resolve } from 'node:path';
import type { CommandIo, CommandTable, InProcessCommand } from '../command.js';
import type { Finding } from '../../platform/finding.js';
import { buildMplabProject } from './build.js';
import { programMplabProject, resolveProgramTarget } from './ipecmd.js';
import { describeProgram, type ProgramConsent, type ProgramTarget } from './program-consent.js';

export interface MplabxCommandDeps {
  /**
   * The permission broker: asks the person `question` and returns their consent
   * (`grantProgram(target, ...)`), or undefined when they refused. `program` never runs without it.
   */
  requestProgramConsent(target: ProgramTarget, question: string): Promise<ProgramConsent | undefined>;
  /** ipecmd and prjMakefilesGenerator locations, when not in a standard MPLAB X install. */
  ipecmd?: string;
  generator?: string;
}

interface Parsed {
  project: string;
  configuration?: string;
  /** `NAME=value` arguments, passed to make as it would take them (`MP_CC=/opt/.../xc8-cc`), or to cmake as -DNAME=value. */
  makeVariables: Record<string, string>;
  /** VS Code projects: the configuration's `.production` CMake variant. */
  production: boolean;
  error?: string;
}

export function parseProjectArgs(argv: string[], cwd: string): Parsed {
  let project: string | undefined;
  let configuration: string | undefined;
  let production = false;
  const makeVariables: Record<string, string> = {};
  const fail = (error: string): Parsed => ({ project: cwd, makeVariables, production, error });
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const variable = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(arg);
    if (arg === '--conf' || arg === '-c') {
      configuration = argv[++i];
      if (!configuration) return fail(`${arg} needs a configuration name`);
    } else if (arg.startsWith('--conf=')) configuration = arg.slice('--conf='.length);
    else if (arg === '--production') production = true;
    else if (variable) makeVariables[variable[1]] = variable[2];
    else if (arg.startsWith('-')) return fail(`unknown option ${arg}`);
    else if (project) return fail(`more than one project given (${project}, ${arg})`);
    else project = arg;
  }
  return { project: resolve(cwd, project ?? '.'), configuration, makeVariables, production };
}

export function mplabxCommands(deps: MplabxCommandDeps): CommandTable {
  const build: InProcessCommand = async (argv, io) => {
    const args = parseProjectArgs(argv, io.cwd);
    if (args.error) return usage(io, 'build', args.error);
    const result = await buildMplabProject({
      project: args.project,
      configuration: args.configuration,
      makeVariables: args.makeVariables,
      production: args.production,
      generator: deps.generator,
      env: io.env,
      signal: io.signal,
      onOutput: (text) => io.write(text),
    });
    writeDiagnostics(io, result.diagnostics);
    io.write(`${result.message}\n`);
    return result.ok ? 0 : 1;
  };

  const program: InProcessCommand = async (argv, io) => {
    const args = parseProjectArgs(argv, io.cwd);
    if (args.error) return usage(io, 'program', args.error);
    if (Object.keys(args.makeVariables).length > 0) return usage(io, 'program', 'NAME=value arguments are for build only');
    const resolved = await resolveProgramTarget({ project: args.project, configuration: args.configuration, production: args.production });
    if ('error' in resolved) {
      io.write(`${resolved.error}\n`);
      return 1;
    }
    const { target } = resolved;
    const consent = await deps.requestProgramConsent(target, describeProgram(target));
    if (!consent) {
      io.write(`not programmed: permission to program ${target.device} was not given\n`);
      return 1;
    }
    const result = await programMplabProject({
      project: target.project,
      configuration: target.configuration,
      production: args.production,
      consent,
      ipecmd: deps.ipecmd,
      env: io.env,
      signal: io.signal,
      onOutput: (text) => io.write(text),
    });
    io.write(`${result.message}\n`);
    return result.ok ? 0 : 1;
  };

  return new Map([
    ['build', build],
    ['program', program],
  ]);
}

function usage(io: CommandIo, command: string, error: string): number {
  const variables = command === 'build' ? ' [NAME=value ...]' : '';
  io.write(`boardbridge ${command}: ${error}\nusage: boardbridge ${command} [project.X | VS Code project folder] [--conf NAME] [--production]${variables}\n`);
  return 2;
}

function writeDiagnostics(io: CommandIo, diagnostics: Finding[]): void {
  for (const d of diagnostics) {
    const where = d.file ? `${d.file}${d.line ? `:${d.line}` : ''}${d.column ? `:${d.column}` : ''}: ` : '';
    io.write(`${where}${d.severity}: ${d.message}\n`);
  }
}
