// Checks of a script's camera API use: names that do not exist in the firmware generation it
// targets, calls of the other generation's API, and sensor controls the camera's sensor lacks.
import type { Finding } from '../types.js';
import type { Generation, OpenMvBoard } from './board-facts.js';
import { cameraApi, csiMethodFor, sensorFunctionFor } from './camera-api.js';
import { lazily } from '../../platform/data-files.js';
import { argument, type CameraCall, type CameraUse } from './camera-calls.js';
import { frameSize } from './frame-budget.js';
import type { PyValue } from './python-source.js';

/** Which camera API a script is written for: `sensor` (4.x), `csi` (`csi.CSI()`, 5.x and 4.8+). */
export type ScriptApi = 'sensor' | 'csi' | 'mixed' | 'none';

export function scriptApi(calls: CameraCall[]): ScriptApi {
  const usesSensor = calls.some((c) => c.api === 'sensor');
  const usesCsi = calls.some((c) => c.api === 'csi');
  if (usesSensor && usesCsi) return 'mixed';
  return usesSensor ? 'sensor' : usesCsi ? 'csi' : 'none';
}

function version(text: string | undefined): [number, number, number] | undefined {
  const parts = text?.replace(/^v/i, '').split('.').map(Number);
  if (!parts || parts.length < 2 || parts.some((n) => !Number.isInteger(n))) return undefined;
  return [parts[0], parts[1], parts[2] ?? 0];
}

/** Firmware before 4.7 kept its board files in src/omv/boards with other frame buffer sizes. */
export function isBefore47(firmware: string | undefined): boolean {
  const parsed = version(firmware);
  return parsed !== undefined && before(parsed, [4, 7, 0]) < 0;
}

export function firmwareGeneration(firmware: string | undefined): Generation | undefined {
  const parsed = version(firmware);
  return parsed ? (parsed[0] >= 5 ? '5' : '4') : undefined;
}

const before = (a: [number, number, number], b: [number, number, number]) =>
  a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

// The csi module names sensor models (cid) as chips; the drivers are per family.
const SENSOR_FAMILY: Record<string, string> = {
  MT9V022: 'MT9V0XX', MT9V024: 'MT9V0XX', MT9V032: 'MT9V0XX', MT9V034: 'MT9V0XX',
  BOSON320: 'BOSON', BOSON640: 'BOSON', GENX320ES: 'GENX320',
};
const sensorFamily = (name: string): string => SENSOR_FAMILY[name] ?? name;

// Driver controls whose absence makes the call fail; the firmware does some in software instead.
const failingControls = lazily((): ReadonlySet<string> => {
  const api = cameraApi();
  return new Set(
    Object.values(api.sensors)
      .flatMap((s) => s.controls)
      .filter((control) => !api.softwareControls.has(control) && control !== 'set_pixformat' && control !== 'set_framesize'),
  );
});

interface CheckContext {
  board: OpenMvBoard;
  generation: Generation;
  firmware?: string;
  /** The generation is the camera's (from its firmware or USB identity), not a guess from the script. */
  generationKnown?: boolean;
  sensor?: string;
}

export function apiFindings(use: CameraUse, context: CheckContext): Finding[] {
  const api = cameraApi();
  const findings: Finding[] = [];
  const firmware = version(context.firmware);
  const csiMissing = firmware && before(firmware, version(api.csiFirstFirmware)!) < 0;
  // The camera's firmware as far as it is known: a version, or only its generation (`5.x`).
  const cameraFirmware = context.firmware ?? (context.generationKnown ? `${context.generation}.x` : undefined);
  let sensorOnV5Reported = false;
  for (const call of use.calls) {
    const at = { line: call.line, column: call.column };
    if (call.api === 'csi' && call.target === 'module' && call.name === 'CSI' && csiMissing) {
      findings.push({
        code: 'wrong-generation', severity: 'error', ...at,
        message: `csi.CSI() does not exist in firmware ${context.firmware}: it arrived in ${api.csiFirstFirmware}`,
        suggestion: 'update the camera firmware, or write the set-up with the sensor module (sensor.reset(), sensor.set_pixformat(...))',
      });
    }
    if (call.api === 'sensor' && context.generation === '5' && cameraFirmware && !sensorOnV5Reported) {
      sensorOnV5Reported = true;
      findings.push({
        code: 'wrong-generation', severity: 'info', ...at,
        message: `the sensor module is the 4.x camera API; firmware ${cameraFirmware} keeps it for old scripts, its own API is csi.CSI()`,
        suggestion: 'for new code: csi0 = csi.CSI(); csi0.reset(); csi0.pixformat(csi.RGB565); csi0.framesize(csi.QVGA)',
      });
    }
    const unknown = unknownName(call);
    if (unknown) findings.push({ code: 'unknown-api', severity: 'error', ...at, ...unknown });
    findings.push(...sensorFindings(call, context));
  }
  for (const constant of use.constants) {
    const known = constant.module === 'sensor' ? api.sensorConstants : api.csiConstants;
    if (known.has(constant.name)) continue;
    const otherHasIt = (constant.module === 'sensor' ? api.csiConstants : api.sensorConstants).has(constant.name);
    findings.push({
      code: otherHasIt ? 'wrong-generation' : 'unknown-api',
      severity: 'error',
      line: constant.line,
      column: constant.column,
      message: `${constant.module}.${constant.name} does not exist in the ${constant.module} module${otherHasIt ? ` (only the ${constant.module === 'sensor' ? 'csi' : 'sensor'} module has it)` : ''}`,
      suggestion: nearestHint(constant.name, known, `${constant.module}.`),
    });
  }
  return findings;
}

function unknownName(call: CameraCall): Pick<Finding, 'message' | 'suggestion'> | undefined {
  const api = cameraApi();
  if (call.api === 'sensor') {
    if (api.sensorFunctions.has(call.name)) return undefined;
    const csiName = api.csiMethods.has(call.name) ? sensorFunctionFor(call.name) : undefined;
    return {
      message: `sensor.${call.name}() does not exist (${api.sources.sensor})`,
      suggestion: csiName
        ? `${call.name}() is a csi.CSI method; the sensor module calls it sensor.${csiName}()`
        : nearestHint(call.name, api.sensorFunctions, 'sensor.', '()'),
    };
  }
  if (call.target === 'module') {
    if (call.name === 'CSI' || call.name === 'devices') return undefined;
    return {
      message: `csi.${call.name}() is not a csi module function: camera calls go to a csi.CSI() object`,
      suggestion: `csi0 = csi.CSI(); csi0.${csiMethodFor(call.name) ?? call.name}(...)`,
    };
  }
  if (api.csiMethods.has(call.name)) return undefined;
  const method = csiMethodFor(call.name);
  return {
    message: `csi.CSI objects have no ${call.name}() (${api.sources.csi})`,
    suggestion: method
      ? `sensor.${call.name}() is the 4.x name; on a csi.CSI object it is .${method}()`
      : nearestHint(call.name, api.csiMethods, '.', '()'),
  };
}

/** The sensors the call can meet: the one named, the object's cid, or every sensor the board supports. */
function candidateSensors(call: CameraCall, context: CheckContext): { names: string[]; known: boolean } {
  const api = cameraApi();
  const named = context.sensor ?? (call.cid?.kind === 'constant' ? call.cid.name : undefined);
  if (named) return { names: [sensorFamily(named)].filter((s) => s in api.sensors), known: true };
  return { names: context.board.firmware[context.generation].sensors.filter((s) => s in api.sensors), known: false };
}

function sensorFindings(call: CameraCall, context: CheckContext): Finding[] {
  const api = cameraApi();
  const control = call.api === 'sensor' ? call.name : `set_${call.name}`;
  const { names, known } = candidateSensors(call, context);
  if (names.length === 0) return [];
  const at = { line: call.line, column: call.column };
  const which = known
    ? `the ${names[0]} sensor`
    : `the ${context.board.name}'s ${names.length > 1 ? 'sensors' : 'sensor'} (${names.join(', ')})`;
  if (failingControls().has(control)) {
    const lacking = names.filter((s) => !api.sensors[s].controls.includes(control));
    if (lacking.length === names.length) {
      return [{
        code: 'sensor-feature', severity: 'warning', ...at,
        message: `${which} ${names.length > 1 ? 'do' : 'does'} not implement ${control}: the call fails on this camera (${api.sensors[names[0]].source})`,
        suggestion: 'remove the call or guard it with try/except',
      }];
    }
    // With the sensor unknown, name the gap only when it is common; a rare exception is noise.
    if (lacking.length > 0 && lacking.length * 2 >= names.length) {
      return [{
        code: 'sensor-feature', severity: 'info', ...at,
        message: `${control} works with ${names.filter((s) => !lacking.includes(s)).join(', ')} but not with ${lacking.join(', ')}`,
      }];
    }
  }
  const format = pixelFormatArgument(call);
  if (format === 'JPEG' && names.every((s) => !api.sensors[s].hardwareJpeg)) {
    return [{
      code: 'sensor-feature', severity: 'error', ...at,
      message: `${which} cannot output JPEG (only OV2640 and OV5640 compress in the sensor)`,
      suggestion: 'capture RGB565 or GRAYSCALE and compress with img.to_jpeg() / img.compress()',
    }];
  }
  const size = frameSizeArgument(call);
  const max = known ? api.sensors[names[0]].maxResolution : undefined;
  if (size && max && (size.width > max.width || size.height > max.height)) {
    return [{
      code: 'sensor-resolution', severity: 'warning', ...at,
      message: `${size.name} (${size.width}×${size.height}) is larger than the ${names[0]}'s ${max.width}×${max.height} (${max.source})`,
      suggestion: 'pick a frame size within the sensor resolution',
    }];
  }
  return [];
}

function pixelFormatArgument(call: CameraCall): string | undefined {
  if (call.name !== 'set_pixformat' && call.name !== 'pixformat') return undefined;
  const value: PyValue | undefined = argument(call, 0, 'pixformat');
  return value?.kind === 'constant' ? value.name : undefined;
}

function frameSizeArgument(call: CameraCall) {
  if (call.name !== 'set_framesize' && call.name !== 'framesize') return undefined;
  const value = argument(call, 0, 'framesize');
  if (value?.kind !== 'constant') return undefined;
  return frameSizeOf(value.name);
}

function frameSizeOf(name: string) {
  const size = frameSize(name);
  return size ? { name, ...size } : undefined;
}

function nearestHint(name: string, known: ReadonlySet<string>, prefix: string, suffix = ''): string | undefined {
  let best: { candidate: string; score: number } | undefined;
  for (const candidate of known) {
    const score = similarity(name.toLowerCase(), candidate.toLowerCase());
    if (!best || score > best.score) best = { candidate, score };
  }
  return best && best.score >= 0.5 ? `did you mean ${prefix}${best.candidate}${suffix}?` : undefined;
}

/** Dice coefficient over character pairs: robust to the insertions typical of API typos. */
function similarity(a: string, b: string): number {
  const pairs = (s: string) => Array.from({ length: Math.max(0, s.length - 1) }, (_, i) => s.slice(i, i + 2));
  const left = pairs(a);
  const right = pairs(b);
  if (left.length === 0 || right.length === 0) return a === b ? 1 : 0;
  const pool = [...right];
  let shared = 0;
  for (const pair of left) {
    const index = pool.indexOf(pair);
    if (index >= 0) {
      shared++;
      pool.splice(index, 1);
    }
  }
  return (2 * shared) / (left.length + right.length);
}
