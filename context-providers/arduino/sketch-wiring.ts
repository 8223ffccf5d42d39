// The circuit of a sketch that has Wokwi's diagram.json beside it: what each board pin is wired
// to (for the context) and the check of the sketch's pin use against it (platform/circuit/wiring.ts).
import { existsSync } from 'node:fs';
import { join } from '../../platform/path-join.js';
import { DiagramError, readDiagram } from '../../platform/circuit/diagram.js';
import { buildNetlist, type Netlist } from '../../platform/circuit/netlist.js';
import { checkWiring, describeWiring, type PinUse } from '../../platform/circuit/wiring.js';
import type { Finding, HardwareContext } from '../types.js';
import type { PinMap } from './pin-map.js';

export interface SketchWiring {
  file: string;
  wiring: NonNullable<HardwareContext['wiring']>;
  warnings: Finding[];
  check?(uses: PinUse[]): Finding[];
}

export function sketchWiring(sketchDir: string, pinMap: PinMap): SketchWiring | undefined {
  const file = join(sketchDir, 'diagram.json');
  if (!existsSync(file)) return undefined;
  const analogPins = new Map<string, number>();
  for (const pin of pinMap.pins) for (const name of pin.names) if (/^A\d+$/.test(name)) analogPins.set(name, Number(pin.number));
  let netlist: Netlist;
  try {
    netlist = buildNetlist(readDiagram(file), { pinCount: pinMap.digitalPinCount ?? pinMap.pins.length, analogPins });
  } catch (error) {
    if (!(error instanceof DiagramError)) throw error;
    return { file, wiring: [], warnings: [{ severity: 'warning', code: 'diagram', message: `${error.message}; the wiring is left out of the context`, file: error.file, line: error.line }] };
  }
  const wiring = describeWiring(netlist).map((pin) => ({ pin: pin.pin, number: pin.number, to: pin.to, ...(pin.line ? { source: { file, line: pin.line } } : {}) }));
  const warnings: Finding[] = netlist.notes.map((note) => ({ severity: 'info', code: 'diagram-part', message: note, file }));
  return { file, wiring, warnings, check: (uses) => checkWiring(netlist, uses) };
}
