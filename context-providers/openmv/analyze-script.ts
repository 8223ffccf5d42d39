// Checks an OpenMV script against a board: replays its camera set-up in source order (per camera:
// the `sensor` module or each `csi.CSI()` object), sizes every frame it captures against the frame
// buffer, and adds the API and sensor checks of script-checks.ts.
import type { Finding } from '../types.js';
import { frameBufferBudget, type FrameBufferBudget, type Generation, type OpenMvBoard } from './board-facts.js';
import { isEstimate, isPixelFormat, type PixelFormat } from './camera-api.js';
import { argument, describeValue, findCameraUse, type CameraCall } from './camera-calls.js';
import { bytesText, fittingAlternatives, frameName, frameSize, frameTotal, sizeText, type Frame } from './frame-budget.js';
import { PythonSource, type PyValue } from './python-source.js';
import { firstSyntaxProblem, type SyntaxProblem } from './python-syntax.js';
import { apiFindings, firmwareGeneration, isBefore47, scriptApi, type ScriptApi } from './script-checks.js';

export interface ScriptAnalysisOptions {
  board: OpenMvBoard;
  /** The camera's firmware version when known, e.g. `4.6.20` or `5.0.0`. */
  firmware?: string;
  /** The camera's firmware generation when only that is known (from its USB identity). */
  generation?: Generation;
  /** The camera's sensor when known: a family (`OV7725`, `MT9V0XX`) as sensor-ID look-ups name it. */
  sensor?: string;
  /** Shown in findings. */
  file?: string;
}

export interface CheckedFrame extends Frame {
  line: number;
  bytes: number;
  fits: boolean;
}

export interface ScriptAnalysis {
  file?: string;
  api: ScriptApi;
  /** The generation the frame budget is taken from: the camera's firmware, else the script's API. */
  generation: Generation;
  budget: FrameBufferBudget;
  frames: CheckedFrame[];
  findings: Finding[];
  syntaxError?: SyntaxProblem;
}

interface Setting<T> {
  value: T;
  line: number;
}

interface CameraState {
  format?: Setting<PixelFormat>;
  size?: Setting<{ name?: string; width: number; height: number }>;
  window?: Setting<{ width: number; height: number }>;
  buffers?: Setting<number>;
  /** A capture has been checked since the last change. */
  checked: boolean;
}

/** Never throws: a script that cannot be read or checked gets a finding that says why. */
export function analyzeScript(text: string, options: ScriptAnalysisOptions): ScriptAnalysis {
  const source = new PythonSource(text);
  try {
    return analyzeSource(source, options);
  } catch (error) {
    const generation = firmwareGeneration(options.firmware) ?? options.generation ?? '4';
    const reason = `a check failed on it (${error instanceof Error ? error.message : String(error)})`;
    return {
      file: options.file,
      api: scriptApi([]),
      generation,
      budget: frameBufferBudget(options.board, generation, isBefore47(options.firmware)),
      frames: [],
      findings: [notAnalysed(options.file, 1, reason)],
    };
  }
}

function notAnalysed(file: string | undefined, line: number, reason: string): Finding {
  return {
    code: 'script-not-analysed',
    severity: 'warning',
    line,
    ...(file ? { file } : {}),
    message: `the script is not analysed: ${reason}`,
    suggestion: 'split deeply nested expressions into named parts; until then nothing is known of its camera set-up',
  };
}

function analyzeSource(source: PythonSource, options: ScriptAnalysisOptions): ScriptAnalysis {
  const use = findCameraUse(source);
  const api = scriptApi(use.calls);
  const generation = firmwareGeneration(options.firmware) ?? options.generation ?? (api === 'csi' ? '5' : '4');
  const budget = frameBufferBudget(options.board, generation, isBefore47(options.firmware));
  const findings: Finding[] = [];
  if (source.unreadable) findings.push(notAnalysed(undefined, source.unreadable.line, source.unreadable.reason));
  const syntaxError = firstSyntaxProblem(source);
  if (syntaxError) {
    findings.push({
      code: 'syntax-error',
      severity: 'error',
      line: syntaxError.line,
      column: syntaxError.column,
      message: syntaxError.unclosed
        ? `'${syntaxError.unclosed}' is never closed: \`${syntaxError.text.trim()}\``
        : `the script does not parse here: \`${syntaxError.text.trim()}\``,
      suggestion: 'fix the syntax first; the checks below cover only what could be read',
    });
  }
  const frames = replayCameras(use.calls, options.board, budget, findings);
  const generationKnown = options.firmware !== undefined || options.generation !== undefined;
  findings.push(...apiFindings(use, { ...options, generation, generationKnown }));
  for (const finding of findings) if (options.file) finding.file = options.file;
  findings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { file: options.file, api, generation, budget, frames, findings, syntaxError };
}

function replayCameras(calls: CameraCall[], board: OpenMvBoard, budget: FrameBufferBudget, findings: Finding[]) {
  const cameras = new Map<string, CameraState>();
  const frames: CheckedFrame[] = [];
  const capture = (state: CameraState) => {
    if (state.checked) return;
    state.checked = true;
    const frame = checkFrame(state, board, budget, findings);
    if (frame) frames.push(frame);
  };
  for (const call of calls) {
    const key = call.target === 'object' ? `csi@${call.objectLine}` : call.api;
    if (call.target === 'module' && call.api === 'csi') continue;
    const state = cameras.get(key) ?? { checked: false };
    cameras.set(key, state);
    const operation = call.api === 'sensor' ? call.name.replace(/^set_/, '') : call.name;
    switch (operation) {
      case 'reset':
        cameras.set(key, { checked: false });
        break;
      case 'pixformat': {
        const value = argument(call, 0, 'pixformat');
        if (value?.kind === 'constant' && isPixelFormat(value.name)) set(state, 'format', value.name, call.line);
        break;
      }
      case 'framesize':
        setFrameSize(state, argument(call, 0, 'framesize'), call.line);
        break;
      case 'windowing':
      case 'window':
        setWindow(state, call, findings);
        break;
      case 'framebuffers': {
        const count = argument(call, 0, 'count');
        if (count?.kind === 'number') set(state, 'buffers', count.value, call.line);
        break;
      }
      case 'snapshot':
      case 'skip_frames':
        capture(state);
        break;
    }
  }
  // A script that only configures the camera still needs the frame it configured.
  for (const state of cameras.values()) if (!state.checked) capture(state);
  return frames;
}

function set<K extends 'format' | 'size' | 'window' | 'buffers'>(
  state: CameraState,
  key: K,
  value: NonNullable<CameraState[K]>['value'],
  line: number,
): void {
  (state[key] as Setting<typeof value>) = { value, line };
  state.checked = false;
}

function setFrameSize(state: CameraState, value: PyValue | undefined, line: number): void {
  if (value?.kind === 'constant') {
    const size = frameSize(value.name);
    if (size) set(state, 'size', { name: value.name, ...size }, line);
  } else if (value?.kind === 'tuple' && value.items.length === 2) {
    const [w, h] = value.items;
    if (w.kind === 'number' && h.kind === 'number') set(state, 'size', { width: w.value, height: h.value }, line);
  }
  state.window = undefined;
}

/** `set_windowing((x, y, w, h))`, `set_windowing((w, h))` (centred) or the numbers unpacked. */
function setWindow(state: CameraState, call: CameraCall, findings: Finding[]): void {
  const roi = argument(call, 0, 'roi');
  const parts = roi?.kind === 'tuple' ? roi.items : call.positional;
  const numbers = parts.map((p) => (p.kind === 'number' ? p.value : undefined));
  if (numbers.some((n) => n === undefined) || (numbers.length !== 2 && numbers.length !== 4)) return;
  const [x, y, width, height] = numbers.length === 4 ? (numbers as number[]) : [0, 0, numbers[0]!, numbers[1]!];
  const size = state.size?.value;
  if (size && (x + width > size.width || y + height > size.height)) {
    findings.push({
      code: 'window',
      severity: 'error',
      line: call.line,
      message: `the window ${describeValue(roi ?? { kind: 'tuple', items: parts })} reaches ${x + width}×${y + height}, outside the ${size.name ? `${size.name} ` : ''}${size.width}×${size.height} frame`,
      suggestion: `keep x + w ≤ ${size.width} and y + h ≤ ${size.height}, or set a larger frame size first`,
    });
  }
  set(state, 'window', { width, height }, call.line);
}

function checkFrame(state: CameraState, board: OpenMvBoard, budget: FrameBufferBudget, findings: Finding[]) {
  if (!state.format || !state.size) return undefined;
  const dims = state.window?.value ?? state.size.value;
  const frame: Frame = {
    sizeName: state.window ? undefined : state.size.value.name,
    width: dims.width,
    height: dims.height,
    format: state.format.value,
    buffers: state.buffers?.value ?? 1,
  };
  const bytes = frameTotal(frame);
  // Blame the setting that completed the oversized frame.
  const line = Math.max(state.format.line, state.size.line, state.window?.line ?? 0, state.buffers?.line ?? 0);
  const fits = bytes <= budget.bytes;
  if (!fits) {
    const estimate = isEstimate(frame.format);
    const buffers = frame.buffers > 1 ? ` in ${frame.buffers} frame buffers` : '';
    const alternatives = fittingAlternatives(frame, budget.bytes);
    const finding: Finding = {
      code: 'framebuffer',
      severity: estimate ? 'warning' : 'error',
      line,
      message: `${frameName(frame)} ${frame.format} needs ${estimate ? 'about ' : ''}${bytesText(bytes)} bytes${buffers}; the ${board.name} frame buffer holds about ${sizeText(budget.bytes)}`,
      suggestion: alternatives.length > 0 ? `use ${alternatives.join(' or ')}` : undefined,
    };
    if (!findings.some((f) => f.line === line && f.message === finding.message)) findings.push(finding);
  }
  return { ...frame, line, bytes, fits };
}
