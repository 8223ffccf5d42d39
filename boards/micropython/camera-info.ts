// What a connected camera says about itself: firmware version, arch string (and so the board),
// sensor and script state. Over usbdbg (OpenMV 4.x, without disturbing a running script) or over
// the raw REPL (any MicroPython; it interrupts a running script to ask).
import { boardsByArch } from '../../context-providers/openmv/board-facts.js';
import { sensorForId } from '../../context-providers/openmv/camera-api.js';
import type { RunnerDeps } from './run-script.js';
import { RawRepl } from './raw-repl.js';
import { UsbdbgClient, USBDBG_BAUD_FAST } from './usbdbg.js';

export interface CameraInfo {
  port: string;
  protocol: 'usbdbg' | 'repl';
  /** OpenMV firmware version (usbdbg, `omv.version_string()`), e.g. `4.5.9`. */
  firmware?: string;
  /** MicroPython's own version and machine (REPL only). */
  micropython?: string;
  machine?: string;
  arch?: string;
  boardType?: string;
  /** The OpenMV board the arch string names. */
  board?: { id: string; name: string };
  sensor?: { id: number; name?: string };
  scriptRunning?: boolean;
}

// Prints `key: value` lines; `omv` exists only on OpenMV firmware.
const INFO_SCRIPT = [
  'import os, sys',
  "print('micropython:', '.'.join(str(n) for n in sys.implementation.version))",
  "print('machine:', os.uname().machine)",
  'try:',
  '    import omv',
  "    print('firmware:', omv.version_string())",
  "    print('arch:', omv.arch())",
  "    print('board_type:', omv.board_type())",
  'except ImportError:',
  '    pass',
  '',
].join('\n');

function boardForArch(arch: string): CameraInfo['board'] {
  const board = boardsByArch(arch)[0]?.board;
  return board ? { id: board.id, name: board.name } : undefined;
}

export async function cameraInfoOverUsbdbg(port: string, deps: RunnerDeps, baudRate = USBDBG_BAUD_FAST): Promise<CameraInfo> {
  const link = await deps.openLink(port);
  const client = new UsbdbgClient(link, { timeoutMs: deps.answerTimeoutMs });
  try {
    await client.connect(baudRate);
    const firmware = await client.firmwareVersion();
    const arch = await client.archString();
    const sensor = await client.sensorId();
    const scriptRunning = await client.scriptRunning();
    return {
      port,
      protocol: 'usbdbg',
      firmware,
      arch: arch.arch,
      boardType: arch.type,
      board: boardForArch(arch.arch),
      sensor: sensor === undefined ? undefined : { id: sensor, name: sensorForId(sensor) },
      scriptRunning,
    };
  } finally {
    client.dispose();
    await link.close();
  }
}

export async function cameraInfoOverRepl(port: string, deps: RunnerDeps): Promise<CameraInfo> {
  const link = await deps.openLink(port);
  const repl = new RawRepl(link, { answerTimeoutMs: deps.answerTimeoutMs });
  try {
    await repl.enter();
    const result = await repl.exec(INFO_SCRIPT);
    await repl.exit().catch(() => undefined);
    const fields = new Map<string, string>();
    for (const line of result.stdout.split(/\r?\n/)) {
      const at = line.indexOf(': ');
      if (at > 0) fields.set(line.slice(0, at), line.slice(at + 2).trim());
    }
    const arch = fields.get('arch');
    return {
      port,
      protocol: 'repl',
      firmware: fields.get('firmware'),
      micropython: fields.get('micropython'),
      machine: fields.get('machine'),
      arch,
      boardType: fields.get('board_type'),
      board: arch ? boardForArch(arch) : undefined,
    };
  } finally {
    repl.dispose();
    await link.close();
  }
}

export function describeCameraInfo(info: CameraInfo): string {
  const lines = [`port: ${info.port} (${info.protocol})`];
  if (info.board) lines.push(`board: ${info.board.name} (${info.board.id})`);
  if (info.arch) lines.push(`arch: ${info.arch}${info.boardType ? ` [${info.boardType}]` : ''}`);
  if (info.firmware) lines.push(`firmware: ${info.firmware}`);
  if (info.micropython) lines.push(`MicroPython: ${info.micropython}`);
  if (info.machine) lines.push(`machine: ${info.machine}`);
  if (info.sensor) lines.push(`sensor: ${info.sensor.name ?? 'unknown'} (id 0x${info.sensor.id.toString(16)})`);
  else if (info.protocol === 'usbdbg') lines.push('sensor: none detected');
  if (info.scriptRunning !== undefined) lines.push(`script running: ${info.scriptRunning ? 'yes' : 'no'}`);
  if (!info.arch && info.protocol === 'repl') lines.push('no omv module: this board runs MicroPython, not OpenMV firmware');
  return lines.join('\n');
}
