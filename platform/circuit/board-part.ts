// The Arduino board part of a diagram (`wokwi-arduino-uno`, …): which board it names and what
// each of its pin names is on the installed variant. Numbered and analog pins go through the
// variant's own pin numbers; supplies and second header pins come from boards/data/wokwi-boards.json.
import { dataJson } from '../data-files.js';

/** How a variant names its pins: what a board part's pin names and `--pin` inputs resolve to. */
export interface PinNaming {
  /** Arduino pin numbers the variant defines. */
  pinCount: number;
  /** `A0` → 14, … as the variant header defines them. */
  analogPins: Map<string, number>;
}

export type Supply = 'GND' | '5V' | '3.3V' | 'VIN';

export type BoardPin =
  | { kind: 'io'; pin: number; name: string; channel?: number }
  | { kind: 'analog-only'; name: string; channel: number }
  | { kind: 'supply'; supply: Supply }
  | { kind: 'unconnected' };

interface BoardEntry {
  fqbn: string;
  analogPins: number;
  source: string;
  supplies: Record<string, string>;
  unconnected: string[];
  aliases: Record<string, string>;
}

function boards(): Record<string, BoardEntry> {
  return dataJson<{ boards: Record<string, BoardEntry> }>('wokwi-boards.json').boards;
}

export function isBoardPart(type: string): boolean {
  return type in boards();
}

export function boardPartTypes(): string[] {
  return Object.keys(boards());
}

/** The FQBN a board part stands for when nothing else names one. */
export function boardPartFqbn(type: string): string | undefined {
  return boards()[type]?.fqbn;
}

/**
 * `pinCount` pins have a port (the variant's digital_pin_to_port_PGM); an analog name beyond
 * them (the Nano's A6, A7) is an ADC channel only.
 */
export function boardPin(type: string, name: string, naming: PinNaming): BoardPin | undefined {
  const entry = boards()[type];
  if (!entry) return undefined;
  const supply = entry.supplies[name];
  if (supply) return { kind: 'supply', supply: supply as Supply };
  if (entry.unconnected.includes(name)) return { kind: 'unconnected' };
  const own = entry.aliases[name] ?? name;
  if (/^A\d+$/.test(own)) {
    const pin = naming.analogPins.get(own);
    const channel = Number(own.slice(1));
    if (pin === undefined || channel >= entry.analogPins) return undefined;
    return pin < naming.pinCount ? { kind: 'io', pin, name: own, channel } : { kind: 'analog-only', name: own, channel };
  }
  if (/^\d+$/.test(own)) {
    const pin = Number(own);
    if (pin >= naming.pinCount) return undefined;
    const analog = [...naming.analogPins].find(([, number]) => number === pin)?.[0];
    return { kind: 'io', pin, name: analog ?? `D${pin}`, ...(analog ? { channel: Number(analog.slice(1)) } : {}) };
  }
  return undefined;
}

/** The names the board part has, for an error about a pin it does not. */
export function boardPinNames(type: string, naming: PinNaming): string[] {
  const entry = boards()[type];
  if (!entry) return [];
  const numbers = Array.from({ length: naming.pinCount }, (_, i) => String(i)).filter((n) => ![...naming.analogPins.values()].includes(Number(n)));
  const analog = [...naming.analogPins.keys()].filter((name) => Number(name.slice(1)) < entry.analogPins);
  return [...numbers, ...analog, ...Object.keys(entry.supplies), ...Object.keys(entry.aliases), ...entry.unconnected];
}
