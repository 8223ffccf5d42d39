// ESP32-family chip facts that no Arduino file holds (boards/data/esp32-chips.json, each figure
// citing its ESP-IDF line), validated once with zod and looked up by `build.mcu`. A fact's
// SourceRef is the JSON line that states it, so the agent can follow it to the cited SDK line.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import chipData from '../../../boards/data/esp32-chips.json' with { type: 'json' };
import type { SourceRef } from '../../types.js';
import { dataFile } from '../../data-files.js';

const figure = <T extends z.ZodTypeAny>(value: T) => z.object({ value, source: z.string().min(1) }).strict();
const pins = figure(z.array(z.number().int().nonnegative()));
const channelEntry = z.object({ gpio: z.number().int().nonnegative(), unit: z.number().int().min(1).max(2).optional(), channel: z.number().int().nonnegative(), source: z.string().min(1) }).strict();

const chipSchema = z.object({
  name: z.string(),
  gpioCount: figure(z.number().int().positive()),
  gpios: pins,
  inputOnly: pins,
  // LEDC outputs reach any output-capable GPIO through the GPIO matrix.
  ledc: figure(z.literal(true)),
  flash: pins,
  psram: pins.optional(),
  octalFlashPsram: pins.optional(),
  strapping: pins,
  adc: z.array(channelEntry),
  adcUnits: figure(z.number().int().positive()),
  adc2WithWifi: figure(z.enum(['blocked', 'arbitrated'])).optional(),
  adc2Oneshot: figure(z.boolean()).optional(),
  touchSupported: figure(z.boolean()),
  touch: z.array(channelEntry),
  dac: z.array(channelEntry),
  ledcChannels: figure(z.number().int().positive()),
  ledcTimers: figure(z.number().int().positive()),
  uarts: figure(z.number().int().positive()),
  lpUarts: figure(z.number().int().nonnegative()).optional(),
  wifi: figure(z.boolean()),
  usb: z.object({ otg: z.boolean(), serialJtag: z.boolean(), pins: z.array(z.number().int().nonnegative()), source: z.string().min(1) }).strict(),
}).strict();

const fileSchema = z.object({
  $comment: z.string(),
  espIdf: z.object({ tag: z.string(), commit: z.string().regex(/^[0-9a-f]{40}$/) }).strict(),
  chips: z.record(z.string(), chipSchema),
}).strict();

export type Esp32Chip = z.infer<typeof chipSchema> & { id: string };

export const ESP32_CHIPS_FILE = dataFile('esp32-chips.json');

let loaded: { chips: Map<string, Esp32Chip>; lines: string[] } | undefined;

function load(): { chips: Map<string, Esp32Chip>; lines: string[] } {
  if (loaded) return loaded;
  const parsed = fileSchema.safeParse(chipData);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${ESP32_CHIPS_FILE}: ${issue.path.join('.')}: ${issue.message}`);
  }
  const chips = new Map(Object.entries(parsed.data.chips).map(([id, chip]) => [id, { ...chip, id }]));
  let lines: string[] = [];
  try {
    lines = readFileSync(ESP32_CHIPS_FILE, 'utf8').split('\n');
  } catch {
    // Without the text the facts stay; their SourceRefs lose the line only.
  }
  loaded = { chips, lines };
  return loaded;
}

/** The chip of a `build.mcu` value (`esp32s3`), or undefined when the data file has none. */
export function esp32Chip(mcu: string | undefined): Esp32Chip | undefined {
  return mcu ? load().chips.get(mcu.toLowerCase()) : undefined;
}

export function knownEsp32Chips(): string[] {
  return [...load().chips.keys()];
}

/**
 * The JSON line stating `key` of `chip` (for an entry list, the row of `gpio`): where the agent
 * reads the figure and the ESP-IDF line it cites.
 */
export function chipSource(chip: Esp32Chip, key: keyof z.infer<typeof chipSchema>, gpio?: number): SourceRef {
  const lines = load().lines;
  const start = lines.findIndex((line) => line.trimStart().startsWith(`"${chip.id}": {`));
  if (start < 0) return { file: ESP32_CHIPS_FILE };
  let index = start + 1;
  while (index < lines.length && !lines[index].trimStart().startsWith(`"${key}":`)) index++;
  if (index >= lines.length) return { file: ESP32_CHIPS_FILE };
  if (gpio !== undefined) {
    const row = lines.slice(index).findIndex((line) => line.includes(`"gpio": ${gpio},`));
    if (row >= 0) index += row;
  }
  return { file: ESP32_CHIPS_FILE, line: index + 1 };
}
