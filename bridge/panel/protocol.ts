// What travels over the panel's WebSocket. The page sees BridgeSession events and
// sends the person's answers; nothing here is ACP, so a face never builds an ACP message.
import type { ArduinoIdeState } from '../../context-providers/types.js';
import type { BridgeEvent } from '../session/events.js';
import type { PartLook } from '../../boards/circuit/circuit.js';
import { checkArduinoIdeState } from './arduino-ide-state.js';

export type ReviewStatus = 'pending' | 'accepted' | 'rejected';

/** One file the agent changed, reviewed as a whole: every write since the last decision. */
export interface FileReviewState {
  path: string;
  /** Path relative to the workspace, for display. */
  name: string;
  status: ReviewStatus;
  /** The file did not exist before the first unreviewed write. */
  created: boolean;
  /** Journal sequence numbers of the writes this review covers. */
  seqs: number[];
  /** Why the last accept/reject could not be done (e.g. the file changed since). */
  problem?: string;
}

export interface PinRow {
  number: string;
  names: string[];
  capabilities: string[];
  functions: string[];
  interrupt?: number;
}

export interface BoardContextView {
  board: string;
  id: string;
  mcu?: string;
  pins: PinRow[];
  buses: { kind: string; name: string; pins: Record<string, string> }[];
  /** Facts without a field of their own (e.g. the Arduino IDE's last compile). */
  notes: { topic: string; text: string }[];
  /** What the check found in the project, as the agent is told it (`file:line` when it has one). */
  findings: { severity: string; message: string; where?: string }[];
  /** Problems reading the installed files (a missing device pack, a malformed line): why a table may be empty. */
  warnings: string[];
}

/** The panel's serial monitor: `paused` while an upload has the port. */
export interface SerialView {
  state: 'closed' | 'opening' | 'open' | 'paused' | 'unplugged' | 'released';
  path?: string;
  baudRate?: number;
  pausedBy?: string;
  problem?: string;
}

/** An agent the panel offers when none is ready (bridge/panel/agent-choices.ts). */
export interface AgentChoice {
  id: string;
  title: string;
  installed: boolean;
  /** Installed, logged in and runnable, as far as its files tell (agents/status.ts). */
  ready: boolean;
  /** Where its credentials were found, or what is missing. */
  credentials: string;
  /** What it costs, in one line. */
  offer: string;
  /** Why it cannot run here even when installed (a Node.js too old for it). */
  problem?: string;
  /** Where it was found, when installed. */
  command?: string;
  /** One command that installs it. */
  install?: string;
  /** One command that logs in (run once in a terminal). */
  login?: string;
  loginNote?: string;
  /** The login command's program, when it is not on PATH. */
  loginNeeds?: string;
  /** About the key, when a key is the only way in. */
  keyNote?: string;
  /** Variables that hold a key instead of a login, and those of them that are set. */
  keyEnv: string[];
  keySet: string[];
}

/** No agent runs: why (what failed, in the agent's or the bridge's words) and what can be started instead. */
export interface AgentUnavailable {
  reason: string;
  hint?: string;
  choices: AgentChoice[];
}

/** The workspace's diagram.json as the circuit view draws it (Wokwi's positions in pixels, rotation in degrees). */
export interface CircuitLayout {
  file: string;
  parts: { id: string; type: string; top: number; left: number; rotate: number; attrs: Record<string, string> }[];
  /** "part:pin" to "part:pin", with the file's colour. */
  wires: { from: string; to: string; color?: string }[];
}

export type ServerMessage =
  | {
      type: 'snapshot';
      workspace: string;
      /** Every event so far (consecutive chunks of one message merged): the page replays them. */
      events: BridgeEvent[];
      reviews: FileReviewState[];
      busy: boolean;
      context?: BoardContextView;
      contextProblem?: string;
      /** The port the IDE (or --port) picked, for the header. */
      port?: string;
      serial?: SerialView & { recent: string };
      /** Set while no agent runs; `agentStarting` while one is being started from the panel. */
      agentUnavailable?: AgentUnavailable;
      agentStarting?: string;
    }
  | ({ type: 'agent_unavailable' } & AgentUnavailable)
  /** An agent is being started (`agent`: its name or the agent picked); session_started follows, or agent_unavailable. */
  | { type: 'agent_starting'; agent: string }
  /** The agent picked on the panel started: an IDE remembers the choice in its own setting. */
  | { type: 'agent_chosen'; agent: string }
  | { type: 'event'; event: BridgeEvent }
  | { type: 'busy'; busy: boolean }
  | { type: 'review'; review: FileReviewState }
  | { type: 'diff'; path: string; original: string; modified: string }
  /** A workspace file the page asked to see (a diagnostic's link), by absolute path. */
  | { type: 'file'; path: string; requested: string; text: string }
  | { type: 'context'; context?: BoardContextView; problem?: string; port?: string }
  /** `login`: the terminal command the agent offers when it needs the person to log in (ACP terminal auth). */
  | { type: 'problem'; message: string; hint?: string; login?: string }
  | { type: 'serial'; text: string; missed: number }
  | { type: 'serial_state'; serial: SerialView }
  | { type: 'serial_ports'; ports: { path: string; board?: string }[] }
  /** The circuit view: the diagram (absent without one) and the run shown, the panel's own or the agent's. */
  | {
      type: 'circuit';
      layout?: CircuitLayout;
      running: boolean;
      starting?: boolean;
      atSeconds: number;
      board?: string;
      notes?: string[];
      /** Why there is no run (a diagram error, a failed build), with the compiler's last output. */
      problem?: string;
      output?: string;
      /** Why the last run ended. */
      stopped?: string;
      /** The run is the agent's (its sim_* tools step it): shown, not steered from the page. */
      agent?: boolean;
    }
  /** Parts whose look changed in the last step of the run (each at most once a step), and the serial text of the step. */
  | { type: 'parts'; atSeconds: number; parts: PartLook[]; serial?: string }
  /**
   * `serve --follow`: the IDE's project changed (or cannot be followed). `pending`: the switch waits for
   * the running turn; otherwise the new project's snapshot follows at once.
   */
  | { type: 'project'; ide: string; workspace: string; reason: string; pending?: boolean }
  /** To the IDE's page: apply the agent's write to this file through the editor and save it; answer write_applied. */
  | { type: 'apply_write'; id: number; path: string; text: string };

export type ClientMessage =
  | { type: 'prompt'; text: string }
  | { type: 'cancel' }
  | { type: 'permission'; id: number; optionId: string }
  /** The answer to an agent's form: each field as typed (choices comma-separated), checked by the bridge. */
  | { type: 'elicitation'; id: number; action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string> }
  | { type: 'diff'; path: string }
  /** Show a workspace file (absolute or workspace-relative), e.g. from a compiler diagnostic. */
  | { type: 'open_file'; path: string }
  | { type: 'review'; path: string; decision: 'accept' | 'reject' }
  | { type: 'mode'; modeId: string }
  | { type: 'restart' }
  /** Start an agent while none runs: one of the offered choices, or (no `agent`) the same one again. */
  | { type: 'start_agent'; agent?: string }
  /** From an IDE: the board and port the person picked there (they follow the IDE live), and what the Arduino IDE knows of the build. */
  | { type: 'selection'; board?: string; port?: string; arduinoIde?: ArduinoIdeState }
  /** From an IDE: its unsaved editor contents by absolute path, which the agent reads instead of the disk. */
  | { type: 'buffers'; buffers: Record<string, string> }
  | { type: 'serial_ports' }
  /** From an IDE: this page's IDE applies the agent's writes through its editor. */
  | { type: 'editor' }
  /** From an IDE: whether an apply_write was applied and saved. */
  | { type: 'write_applied'; id: number; ok: boolean }
  | { type: 'serial_open'; path: string; baudRate: number }
  | { type: 'serial_send'; text: string }
  | { type: 'serial_close' }
  /** The circuit view's Run and Stop, and a part the person pressed, released, turned or slid. */
  | { type: 'circuit_start' }
  | { type: 'circuit_stop' }
  | { type: 'circuit_control'; part: string; control: string; value: number };

/** Reads one message from the page; anything malformed is an error value, never a throw. */
export function parseClientMessage(raw: string): ClientMessage | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { error: 'the message is not JSON' };
  }
  if (typeof value !== 'object' || value === null) return { error: 'the message is not an object' };
  const m = value as Record<string, unknown>;
  const str = (key: string) => typeof m[key] === 'string' && (m[key] as string).length > 0;
  switch (m.type) {
    case 'prompt':
      return str('text') ? { type: 'prompt', text: m.text as string } : { error: 'prompt needs text' };
    case 'cancel':
      return { type: 'cancel' };
    case 'restart':
      return { type: 'restart' };
    case 'start_agent':
      if (m.agent !== undefined && !str('agent')) return { error: 'start_agent takes the agent to start as a string (or none for the same again)' };
      return m.agent === undefined ? { type: 'start_agent' } : { type: 'start_agent', agent: m.agent as string };
    case 'permission':
      return Number.isInteger(m.id) && str('optionId') ? { type: 'permission', id: m.id as number, optionId: m.optionId as string } : { error: 'permission needs id and optionId' };
    case 'elicitation': {
      const action = m.action;
      const content = m.content;
      const texts = content === undefined || (typeof content === 'object' && content !== null && Object.values(content).every((v) => typeof v === 'string'));
      if (!Number.isInteger(m.id) || (action !== 'accept' && action !== 'decline' && action !== 'cancel') || !texts) return { error: 'elicitation needs id, action (accept, decline or cancel) and content of strings' };
      return { type: 'elicitation', id: m.id as number, action, content: content as Record<string, string> | undefined };
    }
    case 'diff':
      return str('path') ? { type: 'diff', path: m.path as string } : { error: 'diff needs a path' };
    case 'open_file':
      return str('path') ? { type: 'open_file', path: m.path as string } : { error: 'open_file needs a path' };
    case 'review':
      return str('path') && (m.decision === 'accept' || m.decision === 'reject')
        ? { type: 'review', path: m.path as string, decision: m.decision }
        : { error: 'review needs a path and decision accept or reject' };
    case 'selection': {
      if (!((m.board === undefined || str('board')) && (m.port === undefined || str('port')))) return { error: 'selection takes a board and a port as strings' };
      const ide = m.arduinoIde === undefined ? undefined : checkArduinoIdeState(m.arduinoIde);
      if (ide && 'error' in ide) return { error: `selection: ${ide.error}` };
      return { type: 'selection', board: m.board as string | undefined, port: m.port as string | undefined, ...(ide ? { arduinoIde: ide.value } : {}) };
    }
    case 'buffers': {
      const buffers = m.buffers;
      const ok = typeof buffers === 'object' && buffers !== null && Object.values(buffers).every((v) => typeof v === 'string');
      return ok ? { type: 'buffers', buffers: buffers as Record<string, string> } : { error: 'buffers maps file paths to their text' };
    }
    case 'serial_ports':
      return { type: 'serial_ports' };
    case 'editor':
      return { type: 'editor' };
    case 'write_applied':
      return Number.isInteger(m.id) && typeof m.ok === 'boolean' ? { type: 'write_applied', id: m.id as number, ok: m.ok } : { error: 'write_applied needs an id and ok' };
    case 'serial_close':
      return { type: 'serial_close' };
    case 'circuit_start':
      return { type: 'circuit_start' };
    case 'circuit_stop':
      return { type: 'circuit_stop' };
    case 'circuit_control':
      return str('part') && str('control') && typeof m.value === 'number' && Number.isFinite(m.value)
        ? { type: 'circuit_control', part: m.part as string, control: m.control as string, value: m.value }
        : { error: 'circuit_control needs a part, a control and a number value' };
    case 'serial_open':
      return str('path') && Number.isInteger(m.baudRate) && (m.baudRate as number) > 0
        ? { type: 'serial_open', path: m.path as string, baudRate: m.baudRate as number }
        : { error: 'serial_open needs a port path and a baud rate' };
    case 'serial_send':
      return str('text') ? { type: 'serial_send', text: m.text as string } : { error: 'serial_send needs text' };
    case 'mode':
      return str('modeId') ? { type: 'mode', modeId: m.modeId as string } : { error: 'mode needs a modeId' };
    default:
      return { error: `unknown message type ${JSON.stringify(m.type)}` };
  }
}
