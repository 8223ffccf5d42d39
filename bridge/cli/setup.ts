// `boardbridge setup zed|jetbrains|neovim|emacs|toad`: prints what the editor needs
// to run boardbridge as its ACP agent; with --write, puts it into the editor's files.
import path from 'node:path';
import type { Command } from 'commander';
import { findExecutable } from '../../boards/executables.js';
import { findProfile } from '../agents/profiles.js';
import { EDITORS, editorSetup, type EditorId, type ProxyCommand } from '../setup/editor-configs.js';
import { cliEntry } from '../cli-entry.js';
import { EXIT, printError } from './errors.js';

interface SetupFlags {
  agent?: string;
  agentCommand?: string;
  fqbn?: string;
  board?: string;
  name?: string;
  write?: boolean;
  file?: string;
}

export function registerSetup(program: Command): void {
  program
    .command('setup')
    .description(`print the configuration that makes an ACP editor run boardbridge in front of its agent (${EDITORS.join(', ')}); --write puts it in the editor's settings`)
    .argument('<editor>', EDITORS.join(' | '))
    .option('--agent <name>', 'the agent behind boardbridge: gemini, claude, codex, or one from the config file')
    .option('--agent-command <line>', 'any ACP agent by its command line')
    .option('--fqbn <fqbn>', 'the board to start with (changeable in the editor with /board)')
    .option('--board <id>', 'same as --fqbn, for MPLAB devices and OpenMV boards')
    .option('--name <name>', 'the name the editor shows (default: "<Agent> (board-aware)")')
    .option('--write', 'merge it into the editor\'s settings file, keeping everything else (a backup is made)')
    .option('--file <path>', 'the settings file to write instead of the editor\'s usual one')
    .addHelpText('after', '\nExamples:\n  boardbridge setup zed --agent claude\n  boardbridge setup jetbrains --agent gemini --write\n  boardbridge setup neovim --agent-command "opencode acp"')
    .action(async (editor: string, flags: SetupFlags) => {
      process.exitCode = await setup(editor, flags);
    });
}

async function setup(editor: string, flags: SetupFlags): Promise<number> {
  if (!(EDITORS as readonly string[]).includes(editor)) {
    printError(new Error(`unknown editor "${editor}"; boardbridge sets up: ${EDITORS.join(', ')}`));
    return EXIT.usage;
  }
  if (flags.agent && flags.agentCommand) {
    printError(new Error('give --agent or --agent-command, not both'));
    return EXIT.usage;
  }
  // Without --agent the configuration names the agent that is ready here now (as chat would pick).
  const chosen = flags.agent || flags.agentCommand ? flags : { ...flags, agent: await readyAgent() };
  let result = editorSetup(editor as EditorId, proxyCommand(chosen));
  if (flags.file && result.kind !== 'command-line') result = { ...result, file: path.resolve(flags.file) };
  process.stdout.write(result.text);
  if (!flags.write) {
    if (result.kind !== 'command-line') process.stderr.write(`\n(boardbridge setup: this goes in ${result.file}; add --write to put it there, with a backup)\n`);
    return EXIT.ok;
  }
  return write(result);
}

// When no agent is ready yet, the configuration names Claude, which the person can log in to later.
const FALLBACK_AGENT = 'claude';

async function readyAgent(): Promise<string> {
  const { chooseDefault } = await import('../agents/resolve.js');
  try {
    return chooseDefault(process.env);
  } catch {
    return FALLBACK_AGENT;
  }
}

async function write(result: ReturnType<typeof editorSetup>): Promise<number> {
  // Loaded only for --write: printing a configuration needs no JSONC parser.
  const { writeSetup } = await import('../setup/settings-write.js');
  let written;
  try {
    written = writeSetup(result);
  } catch (error) {
    printError(error);
    return EXIT.error;
  }
  for (const file of written.changed) process.stderr.write(`boardbridge setup: wrote ${file}\n`);
  for (const change of written.changes) process.stderr.write(`boardbridge setup:   ${change}\n`);
  for (const backup of written.backups) process.stderr.write(`boardbridge setup: the previous version is in ${backup}\n`);
  if (!written.changed.length && result.kind !== 'command-line') process.stderr.write(`boardbridge setup: ${result.file} already has it; nothing changed\n`);
  for (const note of written.notes) process.stderr.write(`boardbridge setup: ${note}\n`);
  return EXIT.ok;
}

// The command as it will run from the editor, which may not have the shell's PATH: absolute paths.
export function proxyCommand(flags: SetupFlags): ProxyCommand {
  const args = ['acp'];
  if (flags.agent) args.push('--agent', flags.agent);
  if (flags.agentCommand) args.push('--agent-command', flags.agentCommand);
  const board = flags.fqbn ?? flags.board;
  if (board) args.push(flags.fqbn ? '--fqbn' : '--board', board);
  const installed = findExecutable('boardbridge', process.env.PATH ?? '');
  const cli = cliEntry();
  const command = installed ?? process.execPath;
  const agentId = flags.agentCommand ? undefined : (flags.agent ?? FALLBACK_AGENT);
  return { name: flags.name ?? defaultName(flags), command, args: installed ? args : [cli, ...args], agentId };
}

function defaultName(flags: SetupFlags): string {
  if (flags.agentCommand) return `${path.basename(flags.agentCommand.trim().split(/\s+/)[0] ?? 'agent')} (board-aware)`;
  const id = flags.agent ?? FALLBACK_AGENT;
  const title = findProfile(id)?.title ?? id;
  return `${title.replace(/\s*\(ACP adapter\)$/, '')} (board-aware)`;
}
