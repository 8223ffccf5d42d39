// Programs a part with MPLAB IPE's command-line tool, ipecmd. ipecmd cannot
// detect the part, and programming with the wrong part named can apply the
// wrong programming voltage, so the part always comes from the project's own
// <targetDevice> and nothing here ever probes for it. Programming changes a
// device: it runs only with a consent token the permission broker gave for
// this image, part and programmer.
import { existsSync } from 'node:fs';
import { basename, delimiter } from 'node:path';
import { join } from '../../platform/path-join.js';
import { loadExeca } from '../packages.js';
import type { MplabConfiguration, MplabProject } from '../../context-providers/mplabx/index.js';
import { cmakeFolder, readGeneratedCmake } from './cmake-project.js';
import { findInMplabx } from './mplabx-install.js';
import { consentProblem, type ProgramConsent, type ProgramTarget } from './program-consent.js';
import { resolveTarget } from './project-target.js';

export interface IpecmdRequest {
  device: string | undefined;
  /** ipecmd tool code (`PK4`, `PK5`, `ICD4`, `SN`, `PKOB4`) or MPLAB X's platformTool id. */
  tool: string | undefined;
  hexFile: string;
  /** Programmer serial number, when several are connected. */
  toolSerial?: string;
}

// MPLAB X's <platformTool> ids → ipecmd's -TP codes.
const toolCodes: Record<string, string> = {
  pk3tool: 'PK3',
  pk4tool: 'PK4',
  pk5tool: 'PK5',
  icd3platformtool: 'ICD3',
  icd4tool: 'ICD4',
  icd5tool: 'ICD5',
  ice4tool: 'ICE4',
  snap: 'SN',
  snaptool: 'SN',
  pkob4hybrid: 'PKOB4',
  pkobskdeplatformtool: 'PKOB',
  pm3platformtool: 'PM3',
};
const directCodes = new Set(['PK3', 'PK4', 'PK5', 'ICD3', 'ICD4', 'ICD5', 'ICE4', 'SN', 'PKOB', 'PKOB4', 'PM3']);

// MPLAB for VS Code names the configuration's `tool` as the product is called
// (`MPLAB PICkit 5`, `PKOB nano`); compared without `MPLAB`, spaces and dashes.
const displayNames: Record<string, string> = {
  pickit3: 'PK3',
  pickit4: 'PK4',
  pickit5: 'PK5',
  icd3: 'ICD3',
  icd4: 'ICD4',
  icd5: 'ICD5',
  ice4: 'ICE4',
  snap: 'SN',
  pkob4: 'PKOB4',
  pickitonboard4: 'PKOB4',
  pm3: 'PM3',
};

// Debuggers MPLAB projects name that boardbridge has no ipecmd code for: said so by name rather than "unknown".
const notDriven: Record<string, string> = {
  pkobnano: 'the Curiosity Nano on-board debugger',
  nedbg: 'the Curiosity Nano on-board debugger',
  edbg: 'the Xplained/Curiosity Pro on-board debugger',
  atmelice: 'Atmel-ICE',
  powerdebugger: 'the Power Debugger',
  jlink: 'SEGGER J-Link',
  j32: 'the J-32 debug probe',
};

function normalisedTool(tool: string): string {
  return tool.toLowerCase().replace(/^mplab\s*/, '').replace(/[^a-z0-9]/g, '');
}

export function ipecmdToolCode(tool: string): string | undefined {
  if (directCodes.has(tool.toUpperCase())) return tool.toUpperCase();
  return toolCodes[tool.toLowerCase()] ?? displayNames[normalisedTool(tool)];
}

/** ipecmd names parts without the PIC/dsPIC prefix (`-P18F47Q10`, `-P33CK256MP508`); AVR parts keep theirs. */
export function ipecmdPartName(device: string): string {
  return device.replace(/^(ds)?pic(?=\d)/i, '');
}

export function ipecmdArguments(request: IpecmdRequest): { args: string[] } | { error: string } {
  const device = request.device?.trim();
  if (!device) {
    return { error: 'refusing to program: the project names no device (<targetDevice> is empty). ipecmd cannot detect the part and must never guess it; set the device in the project properties.' };
  }
  if (!request.tool) return { error: 'refusing to program: the project names no programmer (<platformTool> in MPLAB X, "tool" in the .mplab.json configuration); choose one in the project properties.' };
  if (/simulator/i.test(request.tool)) return { error: `refusing to program: the configuration's tool is the simulator (${request.tool}), not a programmer.` };
  const code = ipecmdToolCode(request.tool);
  const known = `boardbridge drives ${[...directCodes].join(', ')} (PICkit 3/4/5, ICD 3/4/5, ICE 4, Snap, PICkit On-Board, PM3) through ipecmd`;
  const named = notDriven[normalisedTool(request.tool)];
  if (!code && named) return { error: `not programmed: the configuration's tool "${request.tool}" is ${named}, which boardbridge cannot drive (${known}). Program it from VS Code or MPLAB X, or choose one of those tools.` };
  if (!code) return { error: `refusing to program: programmer "${request.tool}" has no known ipecmd code; ${known}.` };
  const args = [`-TP${code}`, `-P${ipecmdPartName(device)}`, `-F${request.hexFile}`, '-M', '-OL'];
  if (request.toolSerial) args.push(`-TS${request.toolSerial}`);
  return { args };
}

export interface ProgramOptions {
  project: string;
  configuration?: string;
  /** VS Code projects: the image of the `.production` CMake variant. */
  production?: boolean;
  /** From the permission broker, for exactly the target `resolveProgramTarget` gives. */
  consent: ProgramConsent;
  /** Path to ipecmd(.sh); default: searched in MPLAB X installs, $MPLABX_HOME, PATH. */
  ipecmd?: string;
  hexFile?: string;
  toolSerial?: string;
  env?: Record<string, string>;
  signal?: AbortSignal;
  onOutput?: (text: string) => void;
}

export interface ProgramResult {
  ok: boolean;
  command?: string[];
  exitCode?: number;
  output: string;
  message: string;
}

/** What would be programmed, from the project alone, and the ipecmd arguments for it. */
export async function resolveProgramTarget(options: Pick<ProgramOptions, 'project' | 'configuration' | 'production' | 'hexFile' | 'toolSerial'>): Promise<{ target: ProgramTarget; args: string[] } | { error: string }> {
  const resolved = await resolveTarget(options.project, options.configuration);
  if ('error' in resolved) return resolved;
  const { project, configuration } = resolved;
  const image = options.hexFile ?? (await hexImage(project, configuration, options.production === true));
  const request = ipecmdArguments({ device: configuration.device, tool: configuration.platformTool, hexFile: image, toolSerial: options.toolSerial });
  if ('error' in request) return { error: `${request.error} (configuration "${configuration.name}" of ${project.name})` };
  if (!existsSync(image)) return { error: `nothing to program: ${image} does not exist; build configuration "${configuration.name}" first` };
  const tool = ipecmdToolCode(configuration.platformTool ?? '') as string;
  return { target: { project: project.root, configuration: configuration.name, device: configuration.device as string, tool, image }, args: request.args };
}

// MPLAB X names the image after the project folder (PROJECTNAME in Makefile-variables.mk); the VS Code
// extension's bin2hex writes `<image base name>.hex` beside the .elf its file.cmake names.
async function hexImage(project: MplabProject, conf: MplabConfiguration, production: boolean): Promise<string> {
  if (project.format === 'mplabx') return join(project.root, 'dist', conf.name, 'production', `${basename(project.root)}.production.hex`);
  const cmake = await readGeneratedCmake(cmakeFolder(project.root, project.name, conf.name, production));
  if (!('error' in cmake) && cmake.hex) return cmake.hex;
  return join(project.root, (conf.imagePath ?? `out/${project.name}/${conf.name}.elf`).replace(/\.elf$/, '.hex'));
}

export async function programMplabProject(options: ProgramOptions): Promise<ProgramResult> {
  const resolved = await resolveProgramTarget(options);
  if ('error' in resolved) return { ok: false, output: '', message: resolved.error };
  const { target, args } = resolved;
  const refused = consentProblem(options.consent, target);
  if (refused) return { ok: false, output: '', message: refused };
  const ipecmd = options.ipecmd ?? (await findIpecmd(options.env ?? {}));
  if (!ipecmd) {
    return { ok: false, output: '', message: "MPLAB IPE's ipecmd was not found (looked in /opt/microchip/mplabx/*/mplab_platform/mplab_ipe, $MPLABX_HOME and PATH); install MPLAB X with IPE" };
  }
  const command = [ipecmd, ...args];
  const output: string[] = [`$ ${command.join(' ')}\n`];
  options.onOutput?.(output[0]);
  const execa = await loadExeca();
  const run = execa(ipecmd, args, { all: true, reject: false, cancelSignal: options.signal, env: options.env, stdin: 'ignore' });
  run.all?.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output.push(text);
    options.onOutput?.(text);
  });
  const result = await run;
  const ok = result.exitCode === 0;
  return {
    ok,
    command,
    exitCode: result.exitCode,
    output: output.join(''),
    message: ok ? `programmed ${target.device} with ${target.image}` : `programming ${target.device} failed (ipecmd exit ${result.exitCode ?? result.shortMessage})`,
  };
}

export async function findIpecmd(env: Record<string, string | undefined>): Promise<string | undefined> {
  const installed = await findInMplabx(env, join('mplab_platform', 'mplab_ipe'), ['ipecmd.sh', 'ipecmd.exe']);
  if (installed) return installed;
  for (const dir of (env.PATH ?? process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of ['ipecmd', 'ipecmd.sh']) if (existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}
