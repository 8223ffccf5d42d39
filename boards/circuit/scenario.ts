// Wokwi's automation scenarios, version 1 (docs.wokwi.com/wokwi-ci/automation-scenarios): a YAML
// file with `name`, `version: 1` and `steps`, each step one of `delay`, `wait-serial`,
// `write-serial`, `set-control` and `expect-pin`, optionally with a `name`. Everything is checked
// against the diagram before the run, so a bad key or part is said at its line, not mid-run.
import { readFileSync } from 'node:fs';
import type { YamlValue } from '../../platform/arduino/yaml.js';
import type { Netlist } from '../../platform/circuit/netlist.js';

export type ScenarioStep = { name?: string; line: number } & (
  | { kind: 'delay'; seconds: number; text: string }
  | { kind: 'wait-serial'; text: string }
  | { kind: 'write-serial'; bytes: number[] }
  | { kind: 'set-control'; part: string; control: string; value: number }
  | { kind: 'expect-pin'; part: string; pin: string; value: 0 | 1 }
);

export interface Scenario {
  file: string;
  name: string;
  steps: ScenarioStep[];
}

export class ScenarioError extends Error {
  constructor(file: string, line: number | undefined, problem: string) {
    super(`${file}${line ? `:${line}` : ''}: ${problem}`);
    this.name = 'ScenarioError';
  }
}

const STEP_KEYS = ['delay', 'wait-serial', 'write-serial', 'set-control', 'expect-pin'];
/** Wokwi's other steps, which need a screen or a custom chip this simulator does not have. */
const UNSUPPORTED = ['take-screenshot', 'touch', 'touch-press', 'touch-move', 'touch-release', 'expect-chip-output'];

/** The YAML reader (the yaml package) loads with the first scenario, not with the board commands. */
export async function readScenario(file: string, netlist: Netlist | undefined): Promise<Scenario> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ScenarioError(file, undefined, `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const { parseYaml } = await import('../../platform/arduino/yaml.js');
  const yaml = parseYaml(text, file);
  if (yaml.warnings.length > 0) throw new ScenarioError(file, yaml.warnings[0].line, `not valid YAML: ${yaml.warnings[0].message.replace(/^[^:]*:\d+: /, '').replace(/; the rest.*$/, '')}`);
  const root = yaml.value;
  if (!isMap(root)) throw new ScenarioError(file, 1, 'a scenario is a YAML mapping with name, version: 1 and steps');
  const fail = (path: Array<string | number>, problem: string): never => {
    throw new ScenarioError(file, yaml.lineOf(path), problem);
  };
  if (typeof root.name !== 'string' || root.name === '') fail([], 'the scenario has no "name"');
  if (root.version !== '1') fail(['version'], `"version" is ${root.version === undefined ? 'missing' : `"${String(root.version)}"`}; this reads Wokwi's scenario version 1`);
  if (!Array.isArray(root.steps)) fail(['steps'], '"steps" is not a list of steps');
  const steps = (root.steps as YamlValue[]).map((step, i): ScenarioStep => {
    const at = ['steps', i];
    const line = yaml.lineOf(at) ?? 0;
    if (!isMap(step)) fail(at, `step ${i + 1} is not a mapping such as "- delay: 100ms"`);
    const map = step as Record<string, YamlValue>;
    const keys = Object.keys(map).filter((key) => key !== 'name');
    for (const key of keys) {
      if (UNSUPPORTED.includes(key)) fail([...at, key], `step ${i + 1}: "${key}" is a Wokwi step this local simulator does not run (it runs ${STEP_KEYS.join(', ')})`);
      if (!STEP_KEYS.includes(key)) fail([...at, key], `step ${i + 1}: unknown step key "${key}" (a step is one of ${STEP_KEYS.join(', ')}, with an optional name)`);
    }
    if (keys.length !== 1) fail(at, `step ${i + 1} has ${keys.length === 0 ? 'no action' : `${keys.length} actions (${keys.join(', ')})`}; give one per step`);
    const name = typeof map.name === 'string' && map.name !== '' ? map.name : undefined;
    const base = { ...(name ? { name } : {}), line };
    const key = keys[0];
    const value = map[key];
    const where = [...at, key];
    const label = `step ${i + 1}${name ? ` "${name}"` : ''}`;
    switch (key) {
      case 'delay': {
        const seconds = typeof value === 'string' ? parseTime(value) : undefined;
        if (seconds === undefined) fail(where, `${label}: delay "${String(value)}" needs a unit, e.g. 500ms, 2s, 100us`);
        return { ...base, kind: 'delay', seconds: seconds!, text: value as string };
      }
      case 'wait-serial':
        if (typeof value !== 'string' || value === '') fail(where, `${label}: wait-serial takes the text to wait for`);
        return { ...base, kind: 'wait-serial', text: value as string };
      case 'write-serial': {
        if (typeof value === 'string') return { ...base, kind: 'write-serial', bytes: [...Buffer.from(value)] };
        const bytes = Array.isArray(value) ? value.map(Number) : [];
        if (bytes.length === 0 || bytes.some((b) => !Number.isInteger(b) || b < 0 || b > 255)) fail(where, `${label}: write-serial takes a text or a list of bytes 0–255`);
        return { ...base, kind: 'write-serial', bytes };
      }
      case 'set-control': {
        const fields = params(value, where, label, ['part-id', 'control', 'name', 'value'], fail);
        const part = fields['part-id'];
        const control = fields.control ?? fields.name;
        const number = Number(fields.value);
        if (!part || !control || fields.value === undefined || !Number.isFinite(number)) fail(where, `${label}: set-control takes part-id, control and a number value`);
        checkPart(netlist, part!, where, label, fail);
        const controls = netlist!.parts.find((p) => p.id === part)?.kind.controls ?? {};
        if (!(control! in controls)) {
          const type = netlist!.diagram.parts.find((p) => p.id === part)!.type;
          const takes = Object.entries(controls).map(([c, v]) => `"${c}" (${v})`).join(', ');
          fail(where, `${label}: ${part} (${type}) has ${takes ? `the controls ${takes}` : 'no controls the simulator models'}, not "${control}"`);
        }
        return { ...base, kind: 'set-control', part: part!, control: control!, value: number };
      }
      default: {
        const fields = params(value, where, label, ['part-id', 'name', 'pin', 'value'], fail);
        const part = fields['part-id'];
        const pin = fields.name ?? fields.pin;
        if (!part || !pin || (fields.value !== '0' && fields.value !== '1')) fail(where, `${label}: expect-pin takes part-id, name (the pin) and value 0 or 1`);
        checkPart(netlist, part!, where, label, fail);
        const known = netlist!.parts.find((p) => p.id === part);
        if (known && !known.kind.pins(known.attrs).includes(pin!)) fail(where, `${label}: ${part} (${known.type}) has no pin "${pin}" (its pins: ${known.kind.pins(known.attrs).join(', ')})`);
        if (netlist!.board?.id === part && !netlist!.boardPin(pin!)) fail(where, `${label}: the board ${part} has no pin "${pin}"`);
        return { ...base, kind: 'expect-pin', part: part!, pin: pin!, value: fields.value === '1' ? 1 : 0 };
      }
    }
  });
  return { file, name: root.name as string, steps };
}

function params(value: YamlValue | undefined, where: Array<string | number>, label: string, allowed: string[], fail: (path: Array<string | number>, problem: string) => never): Record<string, string | undefined> {
  if (!isMap(value)) return fail(where, `${label}: give its parameters as a mapping (${allowed.join(', ')})`);
  const out: Record<string, string | undefined> = {};
  for (const [key, field] of Object.entries(value as Record<string, YamlValue>)) {
    if (!allowed.includes(key)) fail([...where, key], `${label}: unknown parameter "${key}" (it takes ${allowed.join(', ')})`);
    out[key] = typeof field === 'string' ? field : undefined;
  }
  return out;
}

function checkPart(netlist: Netlist | undefined, part: string, where: Array<string | number>, label: string, fail: (path: Array<string | number>, problem: string) => never): void {
  if (!netlist) fail(where, `${label}: there is no diagram.json to find part "${part}" in; put one beside the sketch or pass --diagram`);
  const ids = netlist!.diagram.parts.map((p) => p.id);
  if (!ids.includes(part)) fail(where, `${label}: the diagram has no part "${part}" (parts: ${ids.join(', ')})`);
}

/** Wokwi's times: a number with ns, us, ms or s. */
export function parseTime(text: string): number | undefined {
  const match = /^(\d+(?:\.\d*)?)\s*(ns|us|ms|s)$/i.exec(text.trim());
  if (!match) return text.trim() === '0' ? 0 : undefined;
  const scale = { ns: 1e-9, us: 1e-6, ms: 1e-3, s: 1 }[match[2].toLowerCase() as 'ns' | 'us' | 'ms' | 's'];
  return Number(match[1]) * scale;
}

function isMap(value: YamlValue | undefined): value is { [key: string]: YamlValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
