// Scripted inputs: `--pin 2=low@1.5s` (a level from a simulated time on), `--pin A0=512`
// (an analog reading, 0–1023 of AVCC, from the start).
import type { PinNaming } from '../../platform/circuit/board-part.js';
import { parseDuration, UsageError } from '../commands/arguments.js';

export type PinInput =
  | { pin: number; name: string; atSeconds: number; kind: 'level'; level: 0 | 1 }
  | { pin: number; name: string; atSeconds: number; kind: 'analog'; channel: number; value: number };

export function parsePinInput(spec: string, naming: PinNaming, usage: string): PinInput {
  const match = /^([A-Za-z]*\d+)=([^@]+)(?:@(.+))?$/.exec(spec.trim());
  if (!match) throw new UsageError(`cannot read --pin "${spec}"; write it like 2=low, 2=high@1.5s or A0=512`, usage);
  const [, pinText, valueText, atText] = match;
  const atSeconds = atText === undefined ? 0 : parseDuration(atText, usage) / 1000;
  const analogName = /^A\d+$/i.test(pinText) ? pinText.toUpperCase() : undefined;
  const pin = analogName ? naming.analogPins.get(analogName) : Number(pinText.replace(/^D/i, ''));
  if (pin === undefined || !Number.isInteger(pin) || pin < 0 || pin >= naming.pinCount) {
    const analog = [...naming.analogPins.keys()].join(', ');
    throw new UsageError(`--pin "${spec}": this board has no pin ${pinText} (pins 0–${naming.pinCount - 1}${analog ? `, ${analog}` : ''})`, usage);
  }
  const name = pinName(pin, naming);
  const word = valueText.trim().toLowerCase();
  if (word === 'low' || word === 'high') return { pin, name, atSeconds, kind: 'level', level: word === 'high' ? 1 : 0 };
  const channel = [...naming.analogPins.entries()].find(([, number]) => number === pin)?.[0];
  if (channel !== undefined && /^\d+$/.test(word)) {
    const value = Number(word);
    if (value > 1023) throw new UsageError(`--pin "${spec}": an analog reading is 0–1023`, usage);
    return { pin, name, atSeconds, kind: 'analog', channel: Number(channel.slice(1)), value };
  }
  if (word === '0' || word === '1') return { pin, name, atSeconds, kind: 'level', level: word === '1' ? 1 : 0 };
  throw new UsageError(`--pin "${spec}": ${name} takes low or high${channel ? ', or an analog reading 0–1023' : ''}`, usage);
}

export function pinName(pin: number, naming: PinNaming): string {
  for (const [name, number] of naming.analogPins) if (number === pin) return name;
  return `D${pin}`;
}
