// What each board pin of a diagram is wired to, in words ("D2 → btn1 1.l", "D13 → led1 anode
// through r1"), and the sketch checks that follow from it: an output on a pin wired to a button,
// switch or potentiometer, an LED with no resistor in its path, a driven pin wired to nothing.
import type { Net, Netlist } from './netlist.js';
import type { Terminal } from './diagram.js';

export interface WiredPin {
  /** The Arduino pin number. */
  number: number;
  /** `D2`, `A0`. */
  pin: string;
  to: string[];
  /** The diagram line of the first wire on the pin. */
  line?: number;
}

export interface PinUse {
  pin: number;
  /** `pinMode`, `digitalWrite`, `analogWrite`, … */
  call: string;
  /** pinMode's mode argument as written (`OUTPUT`). */
  mode?: string;
  file: string;
  line: number;
}

export interface WiringFinding {
  severity: 'warning' | 'info';
  code: string;
  message: string;
  file: string;
  line: number;
  suggestion: string;
}

const PIN_ROLES: Record<string, Record<string, string>> = {
  'wokwi-led': { A: 'anode', C: 'cathode' },
  'wokwi-rgb-led': { R: 'red', G: 'green', B: 'blue', COM: 'common' },
  'wokwi-buzzer': { '1': 'pin 1 (−)', '2': 'pin 2 (+)' },
};

function described(netlist: Netlist, terminal: Terminal): string {
  const part = netlist.parts.find((p) => p.id === terminal.part) ?? netlist.diagram.parts.find((p) => p.id === terminal.part);
  return `${terminal.part} ${PIN_ROLES[part?.type ?? '']?.[terminal.pin] ?? terminal.pin}`;
}

function isResistor(netlist: Netlist, id: string): boolean {
  return netlist.parts.some((p) => p.id === id && p.type === 'wokwi-resistor');
}

/** The terminals on `net` other than the board's, and those one resistor further on. */
function reach(netlist: Netlist, net: Net): Array<{ terminal: Terminal; through?: string }> {
  const found: Array<{ terminal: Terminal; through?: string }> = [];
  for (const terminal of net.terminals) {
    if (terminal.part === netlist.board?.id) continue;
    if (!isResistor(netlist, terminal.part)) {
      found.push({ terminal });
      continue;
    }
    const other = netlist.netOf(terminal.part, terminal.pin === '1' ? '2' : '1');
    for (const far of other?.terminals ?? []) {
      if (far.part === terminal.part) continue;
      found.push({ terminal: far, through: terminal.part });
    }
  }
  return found;
}

export function describeWiring(netlist: Netlist): WiredPin[] {
  const pins: WiredPin[] = [];
  for (const net of netlist.nets) {
    for (const pin of net.board) {
      if (pin.kind !== 'io') continue;
      const to = reach(netlist, net).map(({ terminal, through }) => {
        const far = terminal.part === netlist.board?.id ? `${terminal.pin} of the board` : described(netlist, terminal);
        return through ? `${far} through ${through}` : far;
      });
      if (to.length === 0) continue;
      const wire = netlist.diagram.wires.find((w) => net.terminals.some((t) => (t.part === w.from.part && t.pin === w.from.pin) || (t.part === w.to.part && t.pin === w.to.pin)));
      pins.push({ number: pin.pin, pin: pin.name, to, ...(wire ? { line: wire.line } : {}) });
    }
  }
  return pins.sort((a, b) => a.number - b.number);
}

const INPUT_TYPES: Record<string, string> = {
  'wokwi-pushbutton': 'a pushbutton',
  'wokwi-slide-switch': 'a slide switch',
  'wokwi-potentiometer': 'a potentiometer',
  'wokwi-slide-potentiometer': 'a slide potentiometer',
};
const DRIVING_CALLS = new Set(['pinMode', 'digitalWrite', 'analogWrite', 'tone']);

export function checkWiring(netlist: Netlist, uses: PinUse[]): WiringFinding[] {
  const findings: WiringFinding[] = [];
  const file = netlist.diagram.file;
  const netOfPin = (number: number) => netlist.nets.find((net) => net.board.some((pin) => pin.kind === 'io' && pin.pin === number));
  const reported = new Set<string>();
  const once = (key: string, finding: WiringFinding) => {
    if (reported.has(key)) return;
    reported.add(key);
    findings.push(finding);
  };
  for (const use of uses) {
    const output = use.call === 'pinMode' ? use.mode === 'OUTPUT' : DRIVING_CALLS.has(use.call) && use.call !== 'pinMode';
    if (!output) continue;
    const net = netOfPin(use.pin);
    const others = net ? reach(netlist, net) : [];
    const label = net?.board.find((pin) => pin.kind === 'io')?.name ?? `D${use.pin}`;
    if (others.length === 0) {
      once(`nothing:${use.pin}`, {
        severity: 'info',
        code: 'wiring-unconnected',
        file: use.file,
        line: use.line,
        message: `${use.call}(${use.pin}, …) drives ${label}, which ${file} wires to nothing`,
        suggestion: `Wire ${label} in ${file}, or check the pin number.`,
      });
      continue;
    }
    if (use.call !== 'pinMode') continue;
    for (const { terminal, through } of others) {
      const part = netlist.parts.find((p) => p.id === terminal.part);
      if (!part) continue;
      const line = netlist.diagram.parts.find((p) => p.id === part.id)?.line;
      const input = INPUT_TYPES[part.type];
      if (input && !through) {
        once(`input:${use.pin}:${part.id}`, {
          severity: 'warning',
          code: 'wiring-output-on-input',
          file: use.file,
          line: use.line,
          message: `pinMode(${use.pin}, OUTPUT) makes ${label} an output, but ${file}${line ? `:${line}` : ''} wires it to ${part.id}, ${input}: it is an input the sketch should read, and driving it against the part can short the pin`,
          suggestion: `Use pinMode(${use.pin}, INPUT_PULLUP) (or INPUT) for ${part.id}, or drive another pin.`,
        });
      }
      if (part.type === 'wokwi-led' && !through) {
        const otherEnd = netlist.netOf(part.id, terminal.pin === 'A' ? 'C' : 'A');
        const limited = otherEnd?.terminals.some((t) => isResistor(netlist, t.part));
        if (!limited) {
          once(`led:${use.pin}:${part.id}`, {
            severity: 'warning',
            code: 'wiring-led-no-resistor',
            file: use.file,
            line: use.line,
            message: `${label} drives ${part.id} (${file}${line ? `:${line}` : ''}) with no resistor in its path: on hardware the LED and the pin take more current than they are rated for`,
            suggestion: `Put a resistor (e.g. 220 Ω) between ${label} and ${part.id}, as Wokwi's examples do.`,
          });
        }
      }
    }
  }
  return findings;
}
