// `boardbridge build` and `boardbridge program` for MPLAB X and MPLAB for
// VS Code projects, run inside the bridge (terminal/* requests, the CLI, the
// MCP tools) through one implementation.
import { resolve } from 'node:path';
import { z } from 'zod';
import type { CommandIo, Outcome } from '../command.js';
import { UsageError } from '../commands/arguments.js';
import type { OperationContext } from '../operation-context.js';
import { MAKE_VARIABLE, type buildInput, type projectInput } from '../operation-inputs.js';
import type { Finding } from '../../platform/finding.js';
import { buildMplabProject } from './build.js';
import { programMplabProject, resolveProgramTarget } from './ipecmd.js';
import { describeProgram } from './program-consent.js';



export interface BuildData {
  project: string;
  ok: boolean;
  message: string;
  diagnostics: Finding[];
}

/** `build proj.X MP_CC=…` and `build MP_CC=… proj.X` alike: a NAME=value where the project would be is a variable. */
function projectAndVariables(project: string | undefined, variables: readonly string[] = []): { project: string | undefined; makeVariables: Record<string, string> } {
  const all = project !== undefined && MAKE_VARIABLE.test(project) ? [project, ...variables] : variables;
  const named = project !== undefined && MAKE_VARIABLE.test(project) ? undefined : project;
  const makeVariables: Record<string, string> = {};
  for (const variable of all) {
    const match = MAKE_VARIABLE.exec(variable);
    if (!match) throw new UsageError(`more than one project given (${named}, ${variable})`);
    makeVariables[match[1]] = match[2];
  }
  return { project: named, makeVariables };
}

export async function buildRun(input: z.output<z.ZodObject<typeof buildInput>>, deps: OperationContext, io: CommandIo): Promise<Outcome<BuildData>> {
  const { project, makeVariables } = projectAndVariables(input.project, input.variables);
  const folder = resolve(io.cwd, project ?? '.');
  const result = await buildMplabProject({
    project: folder,
    configuration: input.conf,
    makeVariables,
    production: input.production === true,
    generator: deps.generator,
    env: io.env,
    signal: io.signal,
    onOutput: (text) => io.write(text),
  });
  writeDiagnostics(io, result.diagnostics);
  io.write(`${result.message}\n`);
  return { exitCode: result.ok ? 0 : 1, data: { project: folder, ok: result.ok, message: result.message, diagnostics: result.diagnostics } };
}

export async function programRun(input: z.output<z.ZodObject<typeof projectInput>>, deps: OperationContext, io: CommandIo): Promise<Outcome<{ project: string; ok: boolean; message: string; device?: string }>> {
  if (input.project !== undefined && MAKE_VARIABLE.test(input.project)) throw new UsageError('NAME=value arguments are for build only');
  const folder = resolve(io.cwd, input.project ?? '.');
  const resolved = await resolveProgramTarget({ project: folder, configuration: input.conf, production: input.production === true });
  if ('error' in resolved) {
    io.write(`${resolved.error}\n`);
    return { exitCode: 1, data: { project: folder, ok: false, message: resolved.error } };
  }
  const { target } = resolved;
  const consent = await deps.requestProgramConsent?.(target, describeProgram(target));
  if (!consent) {
    const message = `not programmed: permission to program ${target.device} was not given`;
    io.write(`${message}\n`);
    return { exitCode: 1, data: { project: folder, ok: false, message, device: target.device } };
  }
  const result = await programMplabProject({
    project: target.project,
    configuration: target.configuration,
    production: input.production === true,
    consent,
    ipecmd: deps.ipecmd,
    env: io.env,
    signal: io.signal,
    onOutput: (text) => io.write(text),
  });
  io.write(`${result.message}\n`);
  return { exitCode: result.ok ? 0 : 1, data: { project: folder, ok: result.ok, message: result.message, device: target.device } };
}

function writeDiagnostics(io: CommandIo, diagnostics: Finding[]): void {
  for (const d of diagnostics) {
    const where = d.file ? `${d.file}${d.line ? `:${d.line}` : ''}${d.column ? `:${d.column}` : ''}: ` : '';
    io.write(`${where}${d.severity}: ${d.message}\n`);
  }
}
