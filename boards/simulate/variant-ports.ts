// Which port and bit each Arduino pin number is, read from the variant's own tables
// (`digital_pin_to_port_PGM` and `digital_pin_to_bit_mask_PGM` in pins_arduino.h), so the
// simulated pins carry the numbers the sketch uses.
import { readFileSync } from 'node:fs';

export interface PinPort {
  pin: number;
  /** `B`, `C`, `D`, … */
  port: string;
  bit: number;
}

export class VariantPortsError extends Error {
  constructor(header: string, problem: string) {
    super(`${header}: ${problem}; the pin numbers of this variant are unknown, so it cannot be simulated`);
    this.name = 'VariantPortsError';
  }
}

/** `files`: the pin header first, then what it includes (eightanaloginputs includes standard's). */
export function readVariantPorts(files: string[]): PinPort[] {
  const texts = files.map((file) => ({ file, text: readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '') }));
  const found = texts.find(({ text }) => /digital_pin_to_port_PGM\s*\[\s*\]\s*=/.test(text));
  const header = found?.file ?? files[0];
  const text = found?.text ?? '';
  const ports = arrayItems(text, 'digital_pin_to_port_PGM', header);
  const masks = arrayItems(text, 'digital_pin_to_bit_mask_PGM', header);
  if (ports.length !== masks.length) {
    throw new VariantPortsError(header, `digital_pin_to_port_PGM has ${ports.length} entries but digital_pin_to_bit_mask_PGM ${masks.length}`);
  }
  return ports.map((item, pin) => {
    const port = /^P([A-L])$/.exec(item)?.[1];
    const bit = /^_BV\(\s*(\d)\s*\)$/.exec(masks[pin])?.[1];
    if (!port || bit === undefined) throw new VariantPortsError(header, `pin ${pin} is "${item}, ${masks[pin]}", not a port and _BV(bit)`);
    return { pin, port, bit: Number(bit) };
  });
}

function arrayItems(text: string, name: string, header: string): string[] {
  const match = new RegExp(`${name}\\s*\\[\\s*\\]\\s*=\\s*\\{([^}]*)\\}`).exec(text);
  if (!match) throw new VariantPortsError(header, `no ${name}[] table`);
  if (/#\s*if/.test(match[1])) throw new VariantPortsError(header, `${name}[] depends on #if conditions`);
  return match[1].split(',').map((item) => item.trim()).filter((item) => item !== '');
}
