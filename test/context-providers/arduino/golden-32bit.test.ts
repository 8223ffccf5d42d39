// Golden contexts for one or more boards of each 32-bit core, from the real platforms in
// arduino/data_dir_32bit in the fixtures folder. Beyond the golden file, every PWM, analog, DAC and
// interrupt fact of every pin is checked against the table line it cites: the line must exist
// and name the pin's peripheral or port (so a golden file written from a wrong reading fails).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expectGolden } from '../../support/golden.js';
import { arduinoContextSchema } from '../../../context-providers/arduino/context-schema.js';
import { createArduinoProvider } from '../../../context-providers/arduino/provider.js';
import { renderArduinoContext } from '../../../context-providers/arduino/render.js';
import type { HardwareContext, Pin } from '../../../context-providers/types.js';
import { DATA_DIR_32BIT, FIXTURES, OWN_FIXTURES, REPO_ROOT, TMP } from './paths.js';

const GOLDEN = join(OWN_FIXTURES, 'golden/32bit');
const SKETCH = join(OWN_FIXTURES, 'sketches/Blink');

const BOARDS: Array<[string, string]> = [
  ['uno-r4-minima', 'arduino:renesas_uno:minima'],
  ['uno-r4-wifi', 'arduino:renesas_uno:unor4wifi'],
  ['nano-33-iot', 'arduino:samd:nano_33_iot'],
  ['mkr-wifi-1010', 'arduino:samd:mkrwifi1010'],
  ['zero', 'arduino:samd:arduino_zero_native'],
  ['pico', 'rp2040:rp2040:rpipico'],
  ['pico-2', 'rp2040:rp2040:rpipico2'],
  ['nano-33-ble', 'arduino:mbed:nano33ble'],
  ['nucleo-f401re', 'STMicroelectronics:stm32:Nucleo_64:pnum=NUCLEO_F401RE'],
  ['blue-pill', 'STMicroelectronics:stm32:GenF1:pnum=BLUEPILL_F103C8'],
  ['esp32-ringo', 'cm:esp32:ringo'],
];

function portable(context: HardwareContext): unknown {
  const text = JSON.stringify(context, null, 2).replaceAll(`${REPO_ROOT}/dist/`, '<repo>/').replaceAll(OWN_FIXTURES, '<fixtures>').replaceAll(FIXTURES, '<shared-fixtures>').replaceAll(REPO_ROOT, '<repo>').replaceAll(TMP, '<tmp>');
  return JSON.parse(text);
}

const lineCache = new Map<string, string[]>();
function citedLine(file: string, line: number): string | undefined {
  if (!lineCache.has(file)) lineCache.set(file, readFileSync(file, 'utf8').split('\n'));
  return lineCache.get(file)![line - 1];
}

// What a cited line must say: either it is the pin's own row (it names the pin or its port), or
// the core's macro for the kind, applying to every pin, or a peripheral row with a word of the capability's kind (PWM, TCC, GPT; ADC, AIN; DAC; INT,
// IRQ, EXTI) and a number or word of the fact (GPT4 B → CHANNEL_4; EXTINT 9 → EXTERNAL_INT_9).
const KIND_WORDS: Record<string, RegExp> = {
  pwm: /PWM|TIM|TCC|TC\d|GPT|AGT|LEDC|SLICE/i,
  'analog-in': /ADC|AIN|ANALOG|\bAN\d/i,
  'analog-out': /DAC/i,
  interrupt: /INT|IRQ|EXTI/i,
};

function mentions(line: string, pin: Pin, capability: string, text: string): boolean {
  // The pin's own table row: it names the pin's port (P104, PA10, P1_3) or the pin (// D0, A0).
  const squash = (value: string) => value.toLowerCase().replace(/[^a-z0-9]/g, '');
  const words = new Set(line.split(/[^A-Za-z0-9_]+/));
  if (pin.names.some((name) => words.has(name)) || pin.names.filter((name) => !/^(D|A)\d+$/.test(name) && name.length >= 3).some((name) => squash(line).includes(squash(name)))) return true;
  // SAMD rows spell port PA02 as `{ PORTA,  2, …`.
  if (pin.names.some((name) => { const port = /^P([A-Z])(\d+)$/.exec(name); return port !== null && new RegExp(`PORT${port[1]}\\s*,\\s*0*${Number(port[2])}\\b`).test(line); })) return true;
  // A peripheral table row: the kind's word and a number or word of the fact.
  const kind = KIND_WORDS[capability];
  if (kind && !kind.test(line)) return false;
  // The core's rule for every pin: `#define digitalPinToInterrupt(pin) (pin)`.
  if (/^\s*#\s*define\s+\w+\(\s*\w+\s*\)/.test(line)) return true;
  const tokens = new Set(line.split(/[^A-Za-z0-9]+|(?<=[A-Za-z])(?=\d)/).map((token) => token.replace(/^0+(?=\d)/, '').toLowerCase()));
  const parts = text.split(/[^A-Za-z0-9]+|(?<=[A-Za-z])(?=\d)/).filter((part) => /\d/.test(part) || part.length >= 3).map((part) => part.replace(/^0+(?=\d)/, '').toLowerCase());
  return parts.some((part) => tokens.has(part));
}

describe('golden contexts of 32-bit boards', () => {
  const provider = createArduinoProvider({ dataDirs: [DATA_DIR_32BIT], sketchbookDirs: [], includeDebian: false, home: TMP });

  test.each(BOARDS)('%s (%s) matches its golden JSON and every pin fact matches the line it cites', async (name, fqbn) => {
    const project = await provider.detect(SKETCH);
    const context = await provider.load(project!, { board: fqbn });
    arduinoContextSchema.parse(context);
    const unchecked: string[] = [];
    let checked = 0;
    for (const pin of context.pins) {
      for (const [capability, detail] of Object.entries(pin.details ?? {})) {
        if (!detail?.source?.line) continue;
        const line = citedLine(detail.source.file, detail.source.line);
        if (line === undefined || !mentions(line, pin, capability, detail.text)) unchecked.push(`D${pin.number} ${capability} "${detail.text}" cites ${detail.source.file}:${detail.source.line}: ${line?.trim()}`);
        checked++;
      }
    }
    expect(unchecked).toEqual([]);
    const file = join(GOLDEN, `${name}.json`);
    const actual = portable(context);
    expectGolden(file, actual);
    console.log(`${fqbn}: ${context.pins.length} pins, ${checked} pin facts checked against their cited lines`);
  });

  test('names the PWM calls the core has: LEDC, not analogWrite, on an ESP32 1.0.x core without analogWrite', async () => {
    const project = await provider.detect(SKETCH);
    const ringo = renderArduinoContext(await provider.load(project!, { board: 'cm:esp32:ringo' }));
    expect(ringo).toMatch(/^- PWM \(ledcAttachPin \+ ledcWrite; this core has no analogWrite\): D0–D19, D21–D23, D25–D27, D32, D33 /m);
    expect(ringo).not.toContain('PWM (analogWrite)');
    const pico = renderArduinoContext(await provider.load(project!, { board: 'rp2040:rp2040:rpipico' }));
    expect(pico).toMatch(/^- PWM \(analogWrite\): /m);
  });
});
