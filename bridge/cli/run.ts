// `boardbridge run "prompt"`: one turn without a person. With --json, one event
// per line (the schema in docs/events.md); the exit code says how the turn ended.
import type { Command } from 'commander';
import { policyFromFlags } from '../services/permission/broker.js';
import type { BridgeEvent } from '../session/events.js';
import { AuthRequiredError } from '../errors.js';
import { describeError, EXIT, printError } from './errors.js';
import { JsonLines } from './json-lines.js';
import { TextRenderer } from './render-text.js';
import { addAgentFlags, startSession, type AgentFlags } from './session-setup.js';
import { addWorkspaceOption, workspaceOf } from './workspace-option.js';

interface RunFlags extends AgentFlags {
  json?: boolean;
  allow?: string;
  allowDevice?: boolean;
  fqbn?: string;
}

export function registerRun(program: Command): void {
  // `run [path] <prompt>`: commander takes no optional argument before a required one, so the
  // first of two is the path.
  const command = addAgentFlags(
    program
      .command('run')
      .usage('[options] [path] <prompt>')
      .description('do one turn without a person and exit: 0 for end_turn, 3 for any other stop reason, 1 on errors')
      .argument('<path-or-prompt>', 'what to ask the agent, or the workspace (same as -w) when the prompt follows')
      .argument('[prompt]', 'what to ask the agent, after a path')
      .option('--json', 'print one JSON event per line (schema: docs/events.md)')
      .option('--allow <level>', 'grant permissions without asking: reads, edits (inside the workspace) or all', 'none')
      .option('--allow-device', 'also allow operations that change a device (upload, program, erase)'),
  );
  addWorkspaceOption(command, false).action(async (first: string, second: string | undefined, flags: RunFlags) => {
    const [where, prompt] = second === undefined ? [undefined, first] : [first, second];
    process.exitCode = await run(prompt, { ...flags, workspace: workspaceOf(command, where, flags) });
  });
}

/** How long a cancelled turn may take to end after SIGTERM or SIGHUP before boardbridge leaves anyway. */
const TERMINATE_GRACE_MS = 3000;

async function run(prompt: string, flags: RunFlags): Promise<number> {
  const lines = flags.json ? new JsonLines(process.stdout) : undefined;
  const emit = lines
    ? (event: BridgeEvent) => lines.write(event)
    : (() => {
        const renderer = new TextRenderer(process.stdout, flags.workspace ?? process.cwd());
        return (event: BridgeEvent) => renderer.render(event);
      })();
  let policy;
  try {
    policy = policyFromFlags(flags.allow, Boolean(flags.allowDevice));
  } catch (error) {
    printError(error);
    return EXIT.usage;
  }
  let session;
  try {
    session = await startSession(flags, policy, undefined, emit);
  } catch (error) {
    if (flags.json) emit(error instanceof AuthRequiredError ? authRequiredEvent(error, flags) : { type: 'error', ...describeError(error) });
    lines?.flush();
    printError(error);
    return EXIT.error;
  }
  // Ctrl-C cancels the turn, a second one ends boardbridge. SIGTERM or SIGHUP (a process
  // manager, a closed terminal) cancels too, and ends it after TERMINATE_GRACE_MS if the
  // agent has not ended the turn by then: the agent's group and its terminals go with it.
  let interrupts = 0;
  const leave = () => void session.close().finally(() => (lines?.flush(), process.exit(EXIT.stopped)));
  const onSignal = () => {
    interrupts++;
    if (interrupts === 1) void session.cancel();
    else leave();
  };
  let terminating: NodeJS.Timeout | undefined;
  const onTerminate = () => {
    if (interrupts++ === 0) void session.cancel();
    terminating ??= setTimeout(leave, TERMINATE_GRACE_MS);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onTerminate);
  process.on('SIGHUP', onTerminate);
  try {
    const result = await session.prompt(prompt);
    if (result.error) {
      if (!flags.json) printError(result.error);
      return EXIT.error;
    }
    return result.stopReason === 'end_turn' ? EXIT.ok : EXIT.stopped;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onTerminate);
    process.off('SIGHUP', onTerminate);
    await session.close();
    clearTimeout(terminating);
    lines?.flush();
  }
}

function authRequiredEvent(error: AuthRequiredError, flags: RunFlags): BridgeEvent {
  return {
    type: 'auth_required',
    agent: { id: flags.agent ?? flags.agentCommand ?? 'default', ...error.agent },
    message: error.message,
    hint: error.hint,
    logins: error.logins.map((l) => ({ methodId: l.methodId, name: l.name, command: [l.command, ...l.args], env: l.env })),
  };
}
