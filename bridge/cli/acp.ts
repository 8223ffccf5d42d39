// `boardbridge acp`: boardbridge as an ACP agent for ACP editors (Zed, JetBrains,
// Neovim, Emacs, Toad, acpx), in front of the real agent. stdout carries only ACP;
// logs go to stderr and a log file.
import { appendFileSync, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { BridgeError, errorMessage } from '../session/errors.js';
import { addAgentFlags, launchFor, selectionOf, type AgentFlags } from './session-setup.js';

interface AcpFlags extends AgentFlags {
  fqbn?: string;
  logFile?: string;
}

export function registerAcp(program: Command): void {
  addAgentFlags(
    program
      .command('acp')
      .description('run as an ACP agent on stdio in front of the real agent, for ACP editors (see: boardbridge setup)')
      .option('--log-file <file>', 'append the log here too (default: ~/.local/state/boardbridge/acp.log)'),
  ).action(async (flags: AcpFlags) => {
    await runAcp(flags);
  });
}

async function runAcp(flags: AcpFlags): Promise<void> {
  const [{ AcpProxy }, { messageStream }, { BridgeHardware }, { ContextService }, { allProviders }, { stateDir }] = await Promise.all([
    import('../proxy/acp-proxy.js'),
    import('../agents/message-stream.js'),
    import('../hardware/bridge-hardware.js'),
    import('../context/context-service.js'),
    import('../../context-providers/index.js'),
    import('../services/fs/journal.js'),
  ]);
  const logFile = flags.logFile ?? path.join(stateDir(), 'acp.log');
  const { log, raw } = logger(logFile);
  // Nothing but ACP may reach stdout: a stray console.log from any library would break the editor's stream.
  console.log = console.info = console.debug = (...args: unknown[]) => log(args.map(String).join(' '));
  let launch;
  try {
    launch = await launchFor(flags);
  } catch (error) {
    launch = error instanceof BridgeError ? error : new BridgeError('agent_not_found', errorMessage(error), 'check --agent, --agent-command and the config file');
    log(`boardbridge acp: ${launch.message}${launch.hint ? ` (${launch.hint})` : ''}`);
  }
  const proxy = new AcpProxy({
    launch,
    agentCwd: flags.workspace,
    editor: messageStream(process.stdin, process.stdout, { onSkippedLine: (line, reason) => log(`skipped a line from the editor (${reason}): ${line}`) }),
    selection: selectionOf(flags),
    sketch: flags.sketch,
    env: process.env,
    contexts: new ContextService(allProviders()),
    hardware: new BridgeHardware(),
    log,
    // The agent's stderr reaches the editor's log view (editors show an agent's stderr) and the file.
    agentStderr: raw,
  });
  const stop = () => void proxy.close();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.once('SIGHUP', stop);
  await proxy.closed;
  process.exit(0);
}

/** Rotated once it passes this size, so a long-lived proxy never fills the disk. */
const LOG_LIMIT = 5 * 1024 * 1024;

function logger(file: string): { log: (line: string) => void; raw: (text: string) => void } {
  let toFile = true;
  let size = 0;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    size = existsSync(file) ? statSync(file).size : 0;
  } catch {
    toFile = false;
  }
  const append = (text: string) => {
    if (!toFile) return;
    try {
      if (size + text.length > LOG_LIMIT) {
        renameSync(file, `${file}.1`);
        size = 0;
      }
      appendFileSync(file, text);
      size += Buffer.byteLength(text);
    } catch {
      toFile = false;
    }
  };
  return {
    log: (line) => {
      process.stderr.write(`boardbridge acp: ${line}\n`);
      append(`${new Date().toISOString()} ${line}\n`);
    },
    raw: (text) => {
      process.stderr.write(text);
      append(text);
    },
  };
}
