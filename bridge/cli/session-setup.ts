// What `chat`, `run` and the other faces share: flags that pick the agent and
// the workspace, turned into a started BridgeSession.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { AgentLaunch } from '../agents/resolve.js';
import type { BridgeSession, SessionOptions } from '../session/bridge-session.js';
import type { BoardSelection } from '../session/board-selection.js';
import type { BridgeEvent } from '../session/events.js';
import type { AskElicitation } from '../services/elicitation/elicitation-broker.js';
import type { AskPerson, PermissionPolicy } from '../services/permission/broker.js';

export interface AgentFlags {
  agent?: string;
  agentCommand?: string;
  config?: string;
  workspace?: string;
  board?: string;
  sketch?: string;
}

export function addAgentFlags(command: Command): Command {
  return command
    .option('--agent <name>', 'agent to run: copilot, claude, codex, opencode, qwen, gemini, or one from the config file (default: the first installed and logged in)')
    .option('--agent-command <line>', 'run any ACP agent by its command line (the environment passes through)')
    .option('--config <file>', 'config file (default: ~/.config/boardbridge/config.json)')
    .option('--sketch <name|dir>', 'the sketch a workspace holds when it is not itself one: its name, folder or .ino (default: the one found below the workspace)')
    .option('--board <id>', 'board selection: an Arduino FQBN, an MPLAB device or an OpenMV board')
    .option('--fqbn <fqbn>', 'the Arduino board (same as --board)');
}

/** `say`: where the one line about a download goes (the terminal; the log for `boardbridge acp`). */
export async function launchFor(flags: AgentFlags, say: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Promise<AgentLaunch> {
  const { loadConfig, resolveAgent } = await import('../agents/resolve.js');
  const config = flags.agentCommand ? {} : await loadConfig(flags.config);
  const launch = await resolveAgent({ agent: flags.agent, agentCommand: flags.agentCommand, config, allowNpx: true });
  if (launch.install && !existsSync(launch.command)) {
    const { installBinary } = await import('../agents/registry/registry-launch.js');
    say(`Downloading ${launch.title} from ${launch.install.archive} …`);
    await installBinary(launch.install);
  }
  return launch;
}

export async function startSession(
  flags: AgentFlags & { fqbn?: string },
  policy: PermissionPolicy,
  ask?: AskPerson,
  onEvent?: (event: BridgeEvent) => void,
  askElicitation?: AskElicitation,
  resume?: SessionOptions['resume'],
  selection?: BoardSelection,
): Promise<BridgeSession> {
  // The agent starts first, in the checked workspace; the session loads while it starts (it is
  // loaded here, not at start-up: `boardbridge context` and `--help` stay quick). A face waits for
  // the longer of the two, not for both one after the other.
  const { checkWorkspace } = await import('../session/workspace-check.js');
  const workspace = checkWorkspace(flags.workspace ?? process.cwd());
  const launch = await launchFor(flags);
  const agent = new (await import('../agents/agent-process.js')).AgentProcess(launch, workspace, process.env);
  try {
    const [{ BridgeSession }, { BridgeHardware }, { ContextService }, { allProviders }] = await Promise.all([
      import('../session/bridge-session.js'),
      import('../hardware/bridge-hardware.js'),
      import('../context/context-service.js'),
      import('../../context-providers/index.js'),
    ]);
    return await BridgeSession.start({
      onEvent,
      hardware: new BridgeHardware(),
      selection: selection ?? selectionOf(flags),
      launch,
      agent,
      workspace,
      policy,
      ask,
      askElicitation,
      resume,
      contexts: new ContextService(allProviders()),
      sketch: flags.sketch,
    });
  } catch (error) {
    // A session that fails to start ends the agent it spoke to; this one may not have been reached.
    if (agent.running) await agent.close();
    throw error;
  }
}

export function selectionOf(flags: AgentFlags & { fqbn?: string }): { board?: string } {
  return { board: flags.board ?? flags.fqbn };
}
