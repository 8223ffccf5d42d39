// ESP32-family chip facts that no Arduino file holds (boards/data/esp32-chips.json, each figure
// citing its ESP-IDF line), validated once and looked up by `build.mcu`. A fact's SourceRef is
// the JSON line that states it, so the agent can follow it to the cited SDK line. The check is
// written out rather than a zod schema: every Arduino context loads this module, and loading zod
// took ~45 ms of a cold one that is not an ESP32.
import type { SourceRef } from '../../types.js';
import { dataFile, dataSource, lazily } from '../../../platform/data-files.js';

interface Figure<T> {
  value: T;
  source: string;
}

interface ChannelEntry {
  gpio: number;
  unit?: number;
  channel: number;
  source: string;
}

interface ChipFacts {
  name: string;
  gpioCount: Figure<number>;
  gpios: Figure<number[]>;
  inputOnly: Figure<number[]>;
  // LEDC outputs reach any output-capable GPIO through the GPIO matrix.
  ledc: Figure<true>;
  flash: Figure<number[]>;
  psram?: Figure<number[]>;
  octalFlashPsram?: Figure<number[]>;
  strapping: Figure<number[]>;
  adc: ChannelEntry[];
  adcUnits: Figure<number>;
  adc2WithWifi?: Figure<'blocked' | 'arbitrated'>;
  adc2Oneshot?: Figure<boolean>;
  touchSupported: Figure<boolean>;
  touch: ChannelEntry[];
  dac: ChannelEntry[];
  ledcChannels: Figure<number>;
  ledcTimers: Figure<number>;
  uarts: Figure<number>;
  lpUarts?: Figure<number>;
  wifi: Figure<boolean>;
  usb: { otg: boolean; serialJtag: boolean; pins: number[]; source: string };
}

export type Esp32Chip = ChipFacts & { id: string };

// A check gives the first problem as `path: what`, or undefined.
type Check = (value: unknown, path: string) => string | undefined;

const at = (path: string, key: string | number): string => (path ? `${path}.${key}` : String(key));
const integer = (min: number, max = Number.POSITIVE_INFINITY): Check => (value, path) =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? undefined : `${path}: expected an integer from ${min}${max < Number.POSITIVE_INFINITY ? ` to ${max}` : ''}`;
const text = (minLength = 0, pattern?: RegExp): Check => (value, path) =>
  typeof value === 'string' && value.length >= minLength && (!pattern || pattern.test(value)) ? undefined : `${path}: expected ${pattern ? `text matching ${pattern}` : minLength > 0 ? 'non-empty text' : 'text'}`;
const oneOf = (...choices: unknown[]): Check => (value, path) => (choices.includes(value) ? undefined : `${path}: expected ${choices.map((choice) => JSON.stringify(choice)).join(' or ')}`);
const list = (item: Check): Check => (value, path) => {
  if (!Array.isArray(value)) return `${path}: expected a list`;
  for (let index = 0; index < value.length; index++) {
    const problem = item(value[index], at(path, index));
    if (problem) return problem;
  }
  return undefined;
};
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const record = (item: Check, keyPattern?: RegExp): Check => (value, path) => {
  if (!isObject(value)) return `${path}: expected an object`;
  for (const [key, entry] of Object.entries(value)) {
    if (keyPattern && !keyPattern.test(key)) return `${at(path, key)}: not a name matching ${keyPattern}`;
    const problem = item(entry, at(path, key));
    if (problem) return problem;
  }
  return undefined;
};
// Every key named, no other key; `optional` ones may be left out.
const object = (fields: Record<string, Check>, optional: string[] = []): Check => (value, path) => {
  if (!isObject(value)) return `${path}: expected an object`;
  const unknown = Object.keys(value).find((key) => !(key in fields));
  if (unknown !== undefined) return `${at(path, unknown)}: not a known key`;
  for (const [key, check] of Object.entries(fields)) {
    if (value[key] === undefined) {
      if (optional.includes(key)) continue;
      return `${at(path, key)}: missing`;
    }
    const problem = check(value[key], at(path, key));
    if (problem) return problem;
  }
  return undefined;
};
const figure = (check: Check): Check => object({ value: check, source: text(1) });

// The file's checks are made when a chip file is first checked: every other board's context (and
// its process start) does without them.
const fileCheck = lazily((): Check => {
  const pins = figure(list(integer(0)));
  const channelEntry = object({ gpio: integer(0), unit: integer(1, 2), channel: integer(0), source: text(1) }, ['unit']);

  const chipCheck = object(
    {
      name: text(),
      gpioCount: figure(integer(1)),
      gpios: pins,
      inputOnly: pins,
      ledc: figure(oneOf(true)),
      flash: pins,
      psram: pins,
      octalFlashPsram: pins,
      strapping: pins,
      adc: list(channelEntry),
      adcUnits: figure(integer(1)),
      adc2WithWifi: figure(oneOf('blocked', 'arbitrated')),
      adc2Oneshot: figure(oneOf(true, false)),
      touchSupported: figure(oneOf(true, false)),
      touch: list(channelEntry),
      dac: list(channelEntry),
      ledcChannels: figure(integer(1)),
      ledcTimers: figure(integer(1)),
      uarts: figure(integer(1)),
      lpUarts: figure(integer(0)),
      wifi: figure(oneOf(true, false)),
      usb: object({ otg: oneOf(true, false), serialJtag: oneOf(true, false), pins: list(integer(0)), source: text(1) }),
    },
    ['psram', 'octalFlashPsram', 'adc2WithWifi', 'adc2Oneshot', 'lpUarts'],
  );
  return object({ $comment: text(), espIdf: object({ tag: text(), commit: text(40, /^[0-9a-f]{40}$/) }), chips: record(chipCheck, CHIP_ID) });
});

// A chip is an ESP-IDF target as `build.mcu` names it (esp32, esp32s3, esp32c6, …): so a board whose
// build.mcu is no such name (every non-ESP32 board) is told apart without reading the file.
const CHIP_ID = /^esp32[a-z0-9]*$/;

/** The first problem of a chip file's content as `path: what` (`chips.esp32.uarts.value: expected an integer from 1`), or undefined. */
export function chipFileProblem(data: unknown): string | undefined {
  return fileCheck()(data, '');
}

/** Where boards/data/esp32-chips.json is (found when first asked for). */
export const esp32ChipsFile = (): string => dataFile('esp32-chips.json');

let loaded: { chips: Map<string, Esp32Chip>; lines: string[] } | undefined;

function load(): { chips: Map<string, Esp32Chip>; lines: string[] } {
  if (loaded) return loaded;
  // Read when an ESP32 board first needs it: the text gives both the facts and their lines.
  const { text, data: chipData } = dataSource<unknown>('esp32-chips.json');
  const problem = chipFileProblem(chipData);
  if (problem) throw new Error(`${esp32ChipsFile()}: ${problem}`);
  const data = chipData as { chips: Record<string, ChipFacts> };
  const chips = new Map(Object.entries(data.chips).map(([id, chip]) => [id, { ...chip, id }]));
  const lines = text.split('\n');
  loaded = { chips, lines };
  return loaded;
}

/** The chip of a `build.mcu` value (`esp32s3`), or undefined when the data file has none. */
export function esp32Chip(mcu: string | undefined): Esp32Chip | undefined {
  const id = mcu?.toLowerCase();
  return id && CHIP_ID.test(id) ? load().chips.get(id) : undefined;
}

export function knownEsp32Chips(): string[] {
  return [...load().chips.keys()];
}

/**
 * The JSON line stating `key` of `chip` (for an entry list, the row of `gpio`): where the agent
 * reads the figure and the ESP-IDF line it cites.
 */
export function chipSource(chip: Esp32Chip, key: keyof ChipFacts, gpio?: number): SourceRef {
  const lines = load().lines;
  const start = lines.findIndex((line) => line.trimStart().startsWith(`"${chip.id}": {`));
  if (start < 0) return { file: esp32ChipsFile() };
  let index = start + 1;
  while (index < lines.length && !lines[index].trimStart().startsWith(`"${key}":`)) index++;
  if (index >= lines.length) return { file: esp32ChipsFile() };
  if (gpio !== undefined) {
    const row = lines.slice(index).findIndex((line) => line.includes(`"gpio": ${gpio},`));
    if (row >= 0) index += row;
  }
  return { file: esp32ChipsFile(), line: index + 1 };
}
