// A tool call's title as a person reads it: the agent's own title, with boardbridge's MCP
// tools (`mcp__boardbridge__simulate`, or `simulate (boardbridge MCP Server)` from gemini) said
// as what they do to which sketch and board, and workspace paths made relative.
const BOARDBRIDGE = [/^mcp__boardbridge__(\w+)$/, /^(\w+) \(boardbridge(?: MCP Server)?\)$/i, /^boardbridge[.:/](\w+)$/];
const OTHER_MCP = /^mcp__([\w-]+)__(\w+)$/;

const words = (name) => name.replace(/_/g, ' ');
const base = (p) => String(p).replace(/[\\/]+$/, '').split(/[\\/]/).pop();

/** The boardbridge tool a call is, or undefined. */
export function boardbridgeTool(title) {
  for (const pattern of BOARDBRIDGE) {
    const match = pattern.exec(title ?? '');
    if (match) return match[1];
  }
  return undefined;
}

/**
 * @param {{ title?: string, kind?: string, rawInput?: unknown }} call
 * @param {{ workspace?: string, board?: { name: string, id: string }, port?: string }} where what the header shows
 */
export function toolTitle(call, where = {}) {
  const title = call.title ?? '';
  const tool = boardbridgeTool(title);
  if (tool) return boardbridgeTitle(tool, typeof call.rawInput === 'object' && call.rawInput ? call.rawInput : {}, where);
  const other = OTHER_MCP.exec(title);
  if (other) return `${capital(words(other[2]))} (${other[1]})`;
  return relativePaths(title, where.workspace) || words(call.kind ?? 'tool');
}

function boardbridgeTitle(tool, input, where) {
  const sketch = input.sketch ? base(input.sketch) : where.workspace ? base(where.workspace) : 'the sketch';
  const board = input.fqbn ? (where.board && where.board.id === input.fqbn ? where.board.name : input.fqbn) : where.board?.name;
  const on = board ? ` on ${board}` : '';
  const project = input.project ? base(input.project) : sketch;
  switch (tool) {
    case 'simulate':
      return `Simulate ${sketch}${on}${input.for ? ` for ${input.for}` : ''}`;
    case 'compile':
      return `Compile ${sketch}${board ? ` for ${board}` : ''}`;
    case 'upload':
      return `Upload ${sketch} to ${input.port ?? where.port ?? board ?? 'the board'}`;
    case 'list_ports':
      return 'List the serial ports';
    case 'board_info':
      return `Read the facts of ${board ?? 'the board'}`;
    case 'pin_info':
      return `Look up pin ${input.pin ?? ''}${on}`.trim();
    case 'build':
      return `Build ${project}`;
    case 'program':
      return `Program the board with ${project}`;
    case 'run_script':
      return `Run ${input.script ? base(input.script) : 'a script'} on the camera`;
    case 'sim_start':
      return `Start the simulator with ${sketch}${on}`;
    case 'sim_run':
      return `Run the simulator${input.for ? ` for ${input.for}` : ''}`;
    case 'sim_serial_read':
      return 'Read the simulator’s serial output';
    case 'sim_serial_write':
      return 'Type into the simulator’s serial input';
    case 'sim_pin':
      return `Read ${input.part ?? 'a part'}:${input.pin ?? ''} in the simulator`;
    case 'sim_control':
      return `Set ${input.part ?? 'a part'} ${input.control ?? ''} to ${input.value ?? ''} in the simulator`;
    default:
      return capital(words(tool));
  }
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Absolute paths inside the workspace shown relative to it. */
export function relativePaths(text, workspace) {
  if (!workspace) return text;
  const root = workspace.replace(/[\\/]+$/, '');
  return text.split(root + '/').join('').split(root + '\\').join('');
}
