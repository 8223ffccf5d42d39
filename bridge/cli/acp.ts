// `boardbridge acp`: boardbridge as an ACP agent for ACP editors (Zed, JetBrains,
// Neovim, Emacs, Toad, acpx), in front of the real agent. stdout carries only ACP;
// the log goes to a file, stderr only gets failures (acp-log.ts).
import type { Command } from 'commander';
import { defaultAcpLogFile, openAcpLog } from './acp-log.js';
import { BridgeError, errorMessage } from '../errors.js';
import { addAgentFlags, launchFor, selectionOf, type AgentFlags } from './session-setup.js';
import { addWorkspaceOption, workspaceOf } from './workspace-option.js';

interface AcpFlags extends AgentFlags {
  fqbn?: string;
  logFile?: string;
  verbose?: boolean;
}

export function registerAcp(program: Command): void {
  const command = addAgentFlags(
    program
      .command('acp')
      .description('run as an ACP agent on stdio in front of the real agent, for ACP editors (see: boardbridge setup)')
      .option('--log-file <file>', `append the log here (default: ${defaultAcpLogFile()}); stderr gets only failures`)
      .option('--verbose', 'copy the log to stderr as well'),
  );
  addWorkspaceOption(command, true).action(async (where: string | undefined, flags: AcpFlags) => {
    await runAcp({ ...flags, workspace: workspaceOf(command, where, flags) });
  });
}

async function runAcp(flags: AcpFlags): Promise<void> {
  const { file: logFile, log, fail, raw } = openAcpLog(flags.logFile ?? defaultAcpLogFile(), Boolean(flags.verbose));
  // Nothing but ACP may reach stdout, and only failures stderr: a library's console output goes to the log.
  console.log = console.info = console.debug = console.warn = console.error = (...args: unknown[]) => log(args.map(String).join(' '));
  let launch;
  try {
    launch = await launchFor(flags, log);
  } catch (error) {
    launch = error instanceof BridgeError ? error : new BridgeError('agent_not_found', errorMessage(error), 'check --agent, --agent-command and the config file');
    fail(`${launch.message}${launch.hint ? ` (${launch.hint})` : ''}`);
  }
  // The agent starts first; the proxy, the board services and the context providers load while
  // it starts. The editor's initialize is answered once the agent answered it, so an editor
  // waits for the longer of the two, not for both one after the other.
  const agent = launch instanceof BridgeError ? undefined : new (await import('../agents/agent-process.js')).AgentProcess(launch, flags.workspace ?? process.cwd(), process.env, raw);
  const [{ AcpProxy }, { editorMessageStream }, { BridgeHardware }, { ContextService }, { allProviders }] = await Promise.all([
    import('../proxy/acp-proxy.js'),
    import('../agents/message-stream.js'),
    import('../hardware/bridge-hardware.js'),
    import('../context/context-service.js'),
    import('../../context-providers/index.js'),
  ]);
  const proxy = new AcpProxy({
    launch,
    agent,
    agentCwd: flags.workspace,
    editor: editorMessageStream(process.stdin, process.stdout, { onSkippedLine: (line, reason) => log(`skipped a line from the editor (${reason}): ${line}`) }),
    selection: selectionOf(flags),
    sketch: flags.sketch,
    env: process.env,
    contexts: new ContextService(allProviders()),
    hardware: new BridgeHardware(),
    log,
    logFailure: fail,
    logFile,
    // The agent's stderr goes to the log; the end of it, when the agent fails, into the editor's error.
    agentStderr: raw,
  });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => void proxy.close(`${signal} received`));
  await proxy.closed;
  process.exit(0);
}
