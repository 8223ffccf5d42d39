// OpenMV board facts (boards/data/openmv-boards.json) and pure look-ups by board id, product
// name, USB identity and the arch string a camera reports. The data file is read on first use.
import { dataJson, lazily } from '../../platform/data-files.js';
import { editDistance } from '../../platform/edit-distance.js';

/** The two camera firmware generations: 4.x (`sensor`, usbdbg) and 5.x (`csi`, OpenMV Protocol). */
export type Generation = '4' | '5';

export interface UsbIdentity {
  /** Upper-case hex without `0x`, e.g. `37C5`. */
  vid: string;
  pid: string;
}

export interface FirmwareFacts {
  /** The firmware tag the figures were read from. */
  tag: string;
  /** `OMV_BOARD_ARCH`: what the camera reports before ` [TYPE:UID]`. */
  arch: string;
  /** v4: `OMV_FB_SIZE`, the main frame buffer. */
  fbBytes?: number;
  fbAllocBytes?: number;
  fbMemory?: string;
  /** v5: `OMV_UMA_BLOCK0_SIZE`, the memory block frame buffers come from. */
  umaBlock0Bytes?: number;
  /** v5: `OMV_SB_SIZE`, the IDE streaming buffer. */
  streamBufferBytes?: number;
  jpegCodec?: boolean;
  sensors: string[];
  usb?: UsbIdentity;
  /** Figure name → `openmv/openmv <tag> <file>:<line>`. */
  sources: Record<string, string>;
  /** Generation 4 only: the figures of firmware before 4.7 (v4.6.20's src/omv/boards layout). */
  v46?: LegacyFacts;
}

export interface LegacyFacts {
  tag: string;
  fbBytes: number;
  fbAllocBytes: number;
  /** `OMV_JPEG_SIZE`: the IDE preview buffer. */
  jpegBytes: number;
  sources: Record<string, string>;
}

export interface OpenMvBoard {
  /** The firmware's board folder name, e.g. `OPENMV4`. */
  id: string;
  name: string;
  mcu: string;
  type: string;
  firmware: Record<Generation, FirmwareFacts>;
}

export interface BoardMatch {
  board: OpenMvBoard;
  /** Set when the query identified the firmware generation too (USB identity). */
  generation?: Generation;
}

export type BoardLookup =
  | { ok: true; board: OpenMvBoard; generation?: Generation; alternatives: OpenMvBoard[] }
  | { ok: false; message: string; known: string[]; nearest?: string };

const boards = lazily((): readonly OpenMvBoard[] => dataJson<{ boards: OpenMvBoard[] }>('openmv-boards.json').boards);
const GENERATIONS: Generation[] = ['4', '5'];

export function knownBoards(): readonly OpenMvBoard[] {
  return boards();
}

const normalise = (text: string): string => text.toUpperCase().replace(/[^A-Z0-9]/g, '');

const hex = (value: string | number): string =>
  (typeof value === 'number' ? value.toString(16) : value.replace(/^0x/i, '')).toUpperCase().padStart(4, '0');

/** Boards (and the generation) that enumerate with this USB VID/PID. */
export function boardsByUsb(vid: string | number, pid: string | number): BoardMatch[] {
  const wanted = { vid: hex(vid), pid: hex(pid) };
  const matches: BoardMatch[] = [];
  for (const board of boards()) {
    for (const generation of GENERATIONS) {
      const usb = board.firmware[generation].usb;
      if (usb && usb.vid === wanted.vid && usb.pid === wanted.pid) matches.push({ board, generation });
    }
  }
  return matches;
}

// The firmware answers ARCH_STR with "<OMV_BOARD_ARCH> [<OMV_BOARD_TYPE>:<uid>]" (common/usbdbg.c).
const ARCH_SUFFIX = /\s*\[[^\]]*\]\s*$/;

/** Boards whose `OMV_BOARD_ARCH` is `arch` (with or without the ` [TYPE:UID]` suffix). */
export function boardsByArch(arch: string): BoardMatch[] {
  const bare = arch.replace(/\0.*$/s, '').replace(ARCH_SUFFIX, '').trim();
  const type = /\[([^:\]]+):/.exec(arch)?.[1];
  const matches = boards().filter((board) => GENERATIONS.some((g) => board.firmware[g].arch === bare));
  // "PICO M0" is shared by the Pico and the Nano RP2040 Connect; the type cannot split them either.
  const byType = type ? matches.filter((board) => board.type === type) : matches;
  return (byType.length > 0 ? byType : matches).map((board) => ({ board }));
}

/**
 * Finds a board from what a user or a camera gives: the board id (`OPENMV4`, `openmv4`), the
 * product name (`OpenMV Cam H7`), an arch string (`OMV4 H7 1024`) or `VID:PID` (`37C5:1204`).
 */
export function lookupBoard(query: string): BoardLookup {
  const text = query.trim();
  const usb = /^(?:0x)?([0-9a-f]{4}):(?:0x)?([0-9a-f]{4})$/i.exec(text);
  let matches: BoardMatch[] = [];
  if (usb) {
    matches = boardsByUsb(usb[1], usb[2]);
  } else {
    const key = normalise(text);
    matches = boards().filter((b) => normalise(b.id) === key || normalise(b.name) === key).map((board) => ({ board }));
    if (matches.length === 0) matches = boardsByArch(text);
  }
  if (matches.length > 0) {
    const [first, ...rest] = matches;
    const sameGeneration = matches.every((m) => m.generation === first.generation);
    return {
      ok: true,
      board: first.board,
      generation: sameGeneration ? first.generation : undefined,
      alternatives: rest.map((m) => m.board).filter((b) => b !== first.board),
    };
  }
  const known = boards().map((b) => b.id);
  const nearest = nearestBoard(text);
  const hint = nearest ? ` Did you mean ${nearest}?` : '';
  return {
    ok: false,
    known,
    nearest,
    message: `Unknown OpenMV board "${text}".${hint} Known boards: ${known.join(', ')}.`,
  };
}

function nearestBoard(text: string): string | undefined {
  const key = normalise(text);
  if (key === '') return undefined;
  let best: { id: string; distance: number } | undefined;
  for (const board of boards()) {
    for (const candidate of [board.id, board.name, board.firmware['4'].arch]) {
      const distance = editDistance(key, normalise(candidate));
      if (!best || distance < best.distance) best = { id: board.id, distance };
    }
  }
  // Beyond half the query's length the "nearest" board is noise, not a typo.
  return best && best.distance <= Math.max(2, Math.ceil(key.length / 2)) ? best.id : undefined;
}


export interface FrameBufferBudget {
  bytes: number;
  /** The define the figure comes from. */
  define: 'OMV_FB_SIZE' | 'OMV_UMA_BLOCK0_SIZE';
  source: string;
  generation: Generation;
}

/**
 * The memory one captured frame (times the number of frame buffers) must fit in. `before47`
 * takes the figure of firmware before 4.7 where the board had one.
 */
export function frameBufferBudget(board: OpenMvBoard, generation: Generation, before47 = false): FrameBufferBudget {
  const facts = board.firmware[generation];
  if (generation === '4' && before47 && facts.v46) {
    return { bytes: facts.v46.fbBytes, define: 'OMV_FB_SIZE', source: facts.v46.sources.fbBytes, generation };
  }
  if (generation === '4' && facts.fbBytes !== undefined) {
    return { bytes: facts.fbBytes, define: 'OMV_FB_SIZE', source: facts.sources.fbBytes, generation };
  }
  return {
    bytes: facts.umaBlock0Bytes ?? 0,
    define: 'OMV_UMA_BLOCK0_SIZE',
    source: facts.sources.umaBlock0Bytes,
    generation,
  };
}
