// Programs a part with MPLAB IPE's command-line tool, ipecmd. ipecmd cannot
// detect the part, and programming with the wrong part named can apply the
// wrong programming voltage, so the part always comes from the project's own
// <targetDevice> and nothing here ever probes for it. Programming changes a
// device: it runs only with a consent the permission broker gave for this part.
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';
import { findInMplabx } from './mplabx-install.js';
import { resolveTarget } from './project-target.js';

/** Proof that the person agreed, through the bridge's permission broker, to program this device. */
export interface ProgramConsent {
  readonly granted: true;
  readonly operation: 'program';
  /** The part the person was asked about; must be the project's device. */
  readonly device: string;
}

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

export function ipecmdToolCode(tool: string): string | undefined {
  if (directCodes.has(tool.toUpperCase())) return tool.toUpperCase();
  return toolCodes[tool.toLowerCase()];
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
  if (!request.tool) return { error: 'refusing to program: the project names no programmer (<platformTool>); choose one in the project properties.' };
  if (/simulator/i.test(request.tool)) return { error: `refusing to program: the configuration's tool is the simulator (${request.tool}), not a programmer.` };
  const code = ipecmdToolCode(request.tool);
  if (!code) return { error: `refusing to program: programmer "${request.tool}" has no known ipecmd code (known: ${[...directCodes].join(', ')}).` };
  const args = [`-TP${code}`, `-P${ipecmdPartName(device)}`, `-F${request.hexFile}`, '-M', '-OL'];
  if (request.toolSerial) args.push(`-TS${request.toolSerial}`);
  return { args };
}

export interface ProgramOptions {
  project: string;
  configuration?: string;
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

export async function programMplabProject(options: ProgramOptions): Promise<ProgramResult> {
  const target = await resolveTarget(options.project, options.configuration);
  if ('error' in target) return { ok: false, output: '', message: target.error };
  const { project, configuration } = target;
  const device = configuration.device;
  if (!options.consent || options.consent.granted !== true || options.consent.operation !== 'program') {
    return { ok: false, output: '', message: 'refusing to program: no consent from the permission broker' };
  }
  if (!device || options.consent.device.toLowerCase() !== device.toLowerCase()) {
    return { ok: false, output: '', message: `refusing to program: consent was given for ${options.consent.device}, but the project's device is ${device ?? 'not set'}` };
  }
  const hexFile = options.hexFile ?? join(project.root, 'dist', configuration.name, 'production', `${project.name}.X.production.hex`);
  const request = ipecmdArguments({ device, tool: configuration.platformTool, hexFile, toolSerial: options.toolSerial });
  if ('error' in request) return { ok: false, output: '', message: request.error };
  if (!existsSync(hexFile)) return { ok: false, output: '', message: `nothing to program: ${hexFile} does not exist; build configuration "${configuration.name}" first` };
  const ipecmd = options.ipecmd ?? (await findIpecmd(options.env ?? {}));
  if (!ipecmd) {
    return { ok: false, output: '', message: 'MPLAB IPE\'s ipecmd was not found (looked in /opt/microchip/mplabx/*/mplab_platform/mplab_ipe, $MPLABX_HOME and PATH); install MPLAB X with IPE' };
  }
  const command = [ipecmd, ...request.args];
  const output: string[] = [`$ ${command.join(' ')}\n`];
  options.onOutput?.(output[0]);
  const run = execa(ipecmd, request.args, { all: true, reject: false, cancelSignal: options.signal, env: options.env, stdin: 'ignore' });
  run.all?.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output.push(text);
    options.onOutput?.(text);
  });
  const result = await run;
  const text = output.join('');
  const ok = result.exitCode === 0;
  return { ok, command, exitCode: result.exitCode, output: text, message: ok ? `programmed ${device} with ${hexFile}` : `programming ${device} failed (ipecmd exit ${result.exitCode ?? result.shortMessage})` };
}

export async function findIpecmd(env: Record<string, string | undefined>): Promise<string | undefined> {
  const installed = await findInMplabx(env, join('mplab_platform', 'mplab_ipe'), ['ipecmd.sh', 'ipecmd.exe']);
  if (installed) return installed;
  for (const dir of (env.PATH ?? process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of ['ipecmd', 'ipecmd.sh']) if (existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}
