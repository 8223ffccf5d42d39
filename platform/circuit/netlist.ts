// A diagram's wires joined into nets (union-find over "part:pin"), checked against the pins each
// part and the board have: a wire to a pin that does not exist is an error at its line; a part
// type the simulator does not know is a note, and its pins stay in the nets as plain terminals.
import { boardPin, boardPinNames, isBoardPart, type BoardPin, type PinNaming } from './board-part.js';
import { DiagramError, type Diagram, type DiagramPart, type Terminal } from './diagram.js';
import { partType, type PartType } from './part-types.js';

export interface Net {
  index: number;
  terminals: Terminal[];
  /** What of the board is on this net: its pins (io, supplies). */
  board: BoardPin[];
}

export interface KnownPart extends DiagramPart {
  kind: PartType;
}

export interface Netlist {
  diagram: Diagram;
  board?: DiagramPart;
  parts: KnownPart[];
  nets: Net[];
  notes: string[];
  /** The net a part's pin is on; undefined when no wire reaches it. */
  netOf(part: string, pin: string): Net | undefined;
  /** What a pin name of the board part is. */
  boardPin(name: string): BoardPin | undefined;
}

export function buildNetlist(diagram: Diagram, naming: PinNaming): Netlist {
  const boards = diagram.parts.filter((part) => isBoardPart(part.type));
  if (boards.length > 1) {
    throw new DiagramError(diagram.file, boards[1].line, `a second board part "${boards[1].id}" (${boards[1].type}); the simulator runs one board, "${boards[0].id}"`);
  }
  const board = boards[0];
  const parts: KnownPart[] = [];
  const notes: string[] = [];
  const byId = new Map(diagram.parts.map((part) => [part.id, part]));
  for (const part of diagram.parts) {
    if (part === board) continue;
    const kind = partType(part.type);
    if (kind) parts.push({ ...part, kind });
    else notes.push(`${diagram.file}:${part.line}: part "${part.id}" is a ${part.type}, which the simulator does not model; its wires are kept but it does nothing`);
  }
  const known = new Map(parts.map((part) => [part.id, part]));

  const parent = new Map<string, string>();
  const find = (key: string): string => {
    let root = key;
    while (parent.get(root) !== root) root = parent.get(root) ?? (parent.set(root, root), root);
    for (let at = key; at !== root; ) {
      const next = parent.get(at)!;
      parent.set(at, root);
      at = next;
    }
    return root;
  };
  const join = (a: string, b: string) => parent.set(find(a), find(b));
  const boardPins = new Map<string, BoardPin>();

  const check = (end: Terminal, line: number): string => {
    const key = `${end.part}:${end.pin}`;
    const part = byId.get(end.part);
    if (!part) throw new DiagramError(diagram.file, line, `the wire goes to "${key}" but there is no part "${end.part}" (parts: ${[...byId.keys()].join(', ')})`);
    if (part === board) {
      const pin = boardPin(part.type, end.pin, naming);
      if (!pin) {
        throw new DiagramError(diagram.file, line, `the ${part.type} "${part.id}" has no pin "${end.pin}" (its pins: ${boardPinNames(part.type, naming).join(', ')})`);
      }
      boardPins.set(key, pin);
      // The board's own copper: every GND is one net, a second header pin is its numbered pin.
      if (pin.kind === 'supply') join(key, `${part.id}:#${pin.supply}`);
      if (pin.kind === 'io' || pin.kind === 'analog-only') join(key, `${part.id}:#${pin.name}`);
    }
    const kind = known.get(end.part)?.kind;
    if (kind) {
      const pins = kind.pins(part.attrs);
      if (!pins.includes(end.pin)) throw new DiagramError(diagram.file, line, `the ${part.type} "${part.id}" has no pin "${end.pin}" (its pins: ${pins.join(', ')}; ${kind.doc})`);
    }
    find(key);
    return key;
  };
  for (const wire of diagram.wires) join(check(wire.from, wire.line), check(wire.to, wire.line));
  for (const part of parts) {
    for (const group of part.kind.joined ?? []) {
      const keys = group.map((pin) => `${part.id}:${pin}`);
      keys.forEach((key) => find(key));
      for (const key of keys.slice(1)) join(keys[0], key);
    }
  }

  const groups = new Map<string, Net>();
  const nets: Net[] = [];
  const netByKey = new Map<string, Net>();
  for (const key of parent.keys()) {
    const root = find(key);
    let net = groups.get(root);
    if (!net) {
      net = { index: nets.length, terminals: [], board: [] };
      groups.set(root, net);
      nets.push(net);
    }
    netByKey.set(key, net);
    const colon = key.indexOf(':');
    const pin = key.slice(colon + 1);
    if (pin.startsWith('#')) continue;
    net.terminals.push({ part: key.slice(0, colon), pin });
    const onBoard = boardPins.get(key);
    if (onBoard && !net.board.some((b) => JSON.stringify(b) === JSON.stringify(onBoard))) net.board.push(onBoard);
  }
  return { diagram, ...(board ? { board } : {}), parts, nets, notes,
    netOf: (part, pin) => netByKey.get(`${part}:${pin}`),
    boardPin: (name) => (board ? boardPin(board.type, name, naming) : undefined),
  };
}
