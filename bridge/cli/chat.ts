// `boardbridge chat`: talk to the agent in the terminal. Replies stream, tool
// calls and the plan show as they change, permission requests offer the agent's
// own options (number or arrow keys), and Ctrl-C cancels the running turn.
import path from 'node:path';
import readline from 'node:readline';
import type { PermissionOption, SessionConfigOption, SessionInfo } from '@agentclientprotocol/sdk';
import type { Command } from 'commander';
import type { AskPerson, PendingPermission } from '../services/permission/broker.js';
import type { BridgeSession } from '../session/bridge-session.js';
import { AuthRequiredError } from '../errors.js';
import { askElicitationWith } from './elicitation-prompt.js';
import { offerLogin } from './terminal-login.js';
import { agentOptionsText } from './agent-options.js';
import { EXIT, printError } from './errors.js';
import { canRenderLive, TextRenderer } from './render-text.js';
import type { AskElicitation } from '../services/elicitation/elicitation-broker.js';
import { addAgentFlags, selectionOf, startSession, type AgentFlags } from './session-setup.js';
import { BoardSelection } from '../session/board-selection.js';
import { addWorkspaceOption, workspaceOf } from './workspace-option.js';
import { optionName, permissionQuestion } from './permission-question.js';
import { terminalLine, terminalText } from './terminal-text.js';
import { policyFromFlags } from '../services/permission/broker.js';
import { answerCommand } from '../proxy/proxy-answers.js';
import { proxyCommandOf } from '../proxy/slash-commands.js';
import type { BridgeEvent } from '../session/events.js';
import { ChatCommandSession } from './chat-commands.js';
import { readJournals } from '../services/fs/journal.js';
import { sessionLabel } from './session-label.js';

interface ChatFlags extends AgentFlags {
  resume?: string | boolean;
  plain?: boolean;
  allow?: string;
  allowDevice?: boolean;
  fqbn?: string;
}

const HELP = 'Type a message. /board <fqbn|device|camera>, /context, /modes, /mode <id>, /config, /config <id> <value>, /logout, /restart, /quit. Ctrl-C cancels a running turn; Ctrl-D leaves.';

export function registerChat(program: Command): void {
  const command = addAgentFlags(
    program
      .command('chat')
      .description('chat with an agent that knows your board (default: the first agent installed and logged in, see boardbridge agents)')
      .option('--allow <level>', 'grant without asking: reads, edits (inside the workspace) or all', 'none')
      .option('--allow-device', 'allow uploads and other device changes without asking')
      .option('--plain', 'print every change as a new line (no status line, no lines rewritten in place), as when output is not a terminal')
      .option('--resume [id]', "continue an earlier session: its id, or pick from the agent's sessions in this folder"),
  );
  addWorkspaceOption(command, true).action(async (where: string | undefined, flags: ChatFlags) => {
    process.exitCode = await chat({ ...flags, workspace: workspaceOf(command, where, flags) });
  });
}

async function chat(flags: ChatFlags): Promise<number> {
  // The agent resolver (and zod) loads with the chat, not at every command's start-up.
  const { NoAgentReady } = await import('../agents/resolve.js');
  const renderer = new TextRenderer(process.stdout, flags.workspace ?? process.cwd(), { live: canRenderLive(process.stdout, Boolean(flags.plain)) });
  // /board changes the selection each prompt carries; /context shows what the agent is told.
  const workspace = path.resolve(flags.workspace ?? '.');
  const commands = new ChatCommandSession(workspace, new BoardSelection(selectionOf(flags)), flags.sketch);
  const noteContext = (e: BridgeEvent) => {
    if (e.type === 'context_sent' && e.full) void commands.sent();
  };
  let rl: readline.Interface;
  let lines: AsyncIterableIterator<string>;
  let session: BridgeSession;
  for (let logins = 0; ; logins++) {
    rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: Boolean(process.stdin.isTTY) });
    // Lines typed while the agent starts are kept (the iterator buffers from here) and sent once it is ready.
    lines = rl[Symbol.asyncIterator]();
    const starting = showStarting(rl, flags.agent ?? 'the agent', canRenderLive(process.stdout, Boolean(flags.plain)) && Boolean(process.stdin.isTTY));
    try {
      const pick = pickSessionWith(rl, workspace);
      const resume = flags.resume === undefined ? undefined : typeof flags.resume === 'string' ? { sessionId: flags.resume } : { pick: (s: SessionInfo[]) => (starting.stop(), pick(s)) };
      const askForm = askElicitationWith(rl);
      const askElicitation: AskElicitation = async (pending, signal) => {
        starting.stop();
        renderer.pause(pending.mode === 'url' ? 'you (a page to open)' : 'your answer to a form');
        try {
          return await askForm(pending, signal);
        } finally {
          renderer.resume();
        }
      };
      const ask = askWith(rl, renderer);
      session = await startSession(flags, policyFromFlags(flags.allow, Boolean(flags.allowDevice)), (p, signal) => (starting.stop(), ask(p, signal)), (e) => (noteContext(e), starting.around(() => renderer.render(e))), askElicitation, resume, commands.selection);
      starting.stop();
      break;
    } catch (error) {
      starting.stop();
      rl.close();
      // Nothing ready is where a newcomer starts, not a failure: show the ways in.
      if (error instanceof NoAgentReady) {
        process.stdout.write(agentOptionsText(error.statuses));
        return EXIT.ok;
      }
      if (error instanceof AuthRequiredError && error.logins.length && logins < 2) {
        if (await offerLogin(error)) continue;
        if (error.hint) process.stderr.write(`  → ${terminalText(error.hint).split('\n').join('\n  → ')}\n`);
        return EXIT.error;
      }
      printError(error);
      return EXIT.error;
    }
  }
  process.stdout.write(`${HELP}\n`);
  let turnRunning = false;
  let closing = false;
  rl.on('SIGINT', () => {
    if (turnRunning) {
      renderer.say('(cancelling…)');
      void session.cancel();
    } else {
      rl.close();
    }
  });
  rl.setPrompt('› ');
  rl.prompt(true);
  for await (const line of lines) {
    const text = line.trim();
    if (!text) {
      rl.prompt();
      continue;
    }
    if (text === '/quit' || text === '/exit') break;
    if (text === '/help') process.stdout.write(`${HELP}\n`);
    else if (text === '/modes') {
      for (const m of session.state.modes.availableModes) process.stdout.write(`${m.id === session.state.modes.currentModeId ? '*' : ' '} ${terminalLine(`${m.id}  ${m.name}`)}\n`);
    } else if (text.startsWith('/mode ')) {
      await session.setMode(text.slice(6).trim()).catch(printError);
    } else if (text === '/config') {
      if (!session.state.configOptions.length) process.stdout.write('This agent offers no session options.\n');
      for (const o of session.state.configOptions) process.stdout.write(`${terminalLine(describeOption(o))}\n`);
    } else if (text.startsWith('/config ')) {
      const [id, ...words] = text.slice(8).trim().split(/\s+/);
      const value = configValue(session.state.configOptions.find((o) => o.id === id), words.join(' '));
      if (typeof value === 'object') process.stdout.write(`${terminalLine(value.error)}\n`);
      else await session.setConfigOption(id, value).catch(printError);
    } else if (text === '/logout') {
      await session.logout().then(() => process.stdout.write('Logged out. The next session will ask you to log in again.\n'), printError);
    } else if (proxyCommandOf([{ type: 'text', text }])) {
      process.stdout.write(`${terminalText(await answerCommand(commands, proxyCommandOf([{ type: 'text', text }])!))}\n`);
    } else if (text === '/restart') {
      await session.restart().catch(printError);
    } else {
      turnRunning = true;
      const result = await session.prompt(text);
      turnRunning = false;
      if (result.error?.code === 'agent_exited') process.stdout.write('The agent stopped. Type /restart to start it again (your files and the journal are intact).\n');
    }
    if (closing) break;
    rl.prompt();
  }
  closing = true;
  rl.close();
  await session.close();
  return EXIT.ok;
}

// "starting <agent>… 3s" while the session starts. Live, it is the prompt itself, redrawn each
// second with what the person types after it; otherwise one line.
function showStarting(rl: readline.Interface, name: string, live: boolean): { stop(): void; around(show: () => void): void } {
  const out = process.stdout;
  const since = Date.now();
  const label = `starting ${terminalLine(name)}…`;
  let timer: NodeJS.Timeout | undefined;
  const draw = () => {
    rl.setPrompt(`${label} ${Math.floor((Date.now() - since) / 1000)}s › `);
    rl.prompt(true);
  };
  const clear = () => {
    readline.clearLine(out, 0);
    readline.cursorTo(out, 0);
  };
  if (live) {
    draw();
    timer = setInterval(draw, 1000);
  } else out.write(`${label}\n`);
  return {
    stop() {
      if (!timer) return;
      clearInterval(timer);
      timer = undefined;
      clear();
    },
    around(show) {
      if (!timer) return show();
      clear();
      show();
      draw();
    },
  };
}

function describeOption(o: SessionConfigOption): string {
  if (o.type === 'boolean') return `  ${o.id} = ${o.currentValue ? 'on' : 'off'}  (${o.name}; on/off)`;
  const choices = o.type === 'select' ? o.options.flatMap((x) => ('options' in x ? x.options : [x])).map((x) => x.value) : [];
  return `  ${o.id} = ${'currentValue' in o ? String(o.currentValue) : ''}  (${o.name}${choices.length ? `; ${choices.join(' | ')}` : ''})`;
}

// A boolean option takes on/off (true/false, yes/no); any other takes the typed value id.
function configValue(option: SessionConfigOption | undefined, typed: string): string | boolean | { error: string } {
  if (option?.type !== 'boolean') return typed;
  if (/^(on|true|yes|1)$/i.test(typed)) return true;
  if (/^(off|false|no|0)$/i.test(typed)) return false;
  return { error: `${option.id} is on or off` };
}

// The agent's earlier sessions here, numbered; Enter takes the first, n starts a new one.
// A session the bridge named (its journal: the agent and the first prompt) is shown by that name.
function pickSessionWith(rl: readline.Interface, workspace: string): (sessions: SessionInfo[]) => Promise<string | undefined> {
  return async (sessions) => {
    const named = new Map((await readJournals(workspace).catch(() => [])).filter((j) => j.header.name).map((j) => [j.header.sessionId, sessionLabel(j.header)]));
    return new Promise((resolve) => {
      const out = process.stdout;
      if (!sessions.length) {
        out.write('No earlier sessions in this folder: starting a new one.\n');
        return resolve(undefined);
      }
      out.write('Earlier sessions in this folder:\n');
      sessions.slice(0, 20).forEach((s, i) => out.write(`  ${i + 1}. ${terminalLine(`${named.get(s.sessionId) ?? `${s.title ?? '(untitled)'}  ${s.updatedAt ?? ''}`}  ${s.sessionId}`)}\n`));
      const ask = () =>
        rl.question(`Resume which (1-${Math.min(sessions.length, 20)}, n for a new session) [1]: `, (answer) => {
          const text = answer.trim();
          if (/^n/i.test(text)) return resolve(undefined);
          const n = text === '' ? 1 : Number(text);
          if (Number.isInteger(n) && n >= 1 && n <= Math.min(sessions.length, 20)) return resolve(sessions[n - 1].sessionId);
          out.write('Please type one of the numbers, or n.\n');
          ask();
        });
      ask();
    });
  };
}

// Asks the person to pick one of the agent's options: a number, or ↑/↓ and Enter. The
// default (Enter) is the agent's "allow once", else a rejection; never "always allow".
function askWith(rl: readline.Interface, renderer: TextRenderer): AskPerson {
  return (pending: PendingPermission, signal: AbortSignal) =>
    new Promise((resolve) => {
      const { options } = pending.request;
      let chosen = defaultOption(options);
      const out = process.stdout;
      renderer.pause('your answer to a permission');
      out.write(`\n\x07${permissionQuestion(pending).join('\n')}\n`);
      options.forEach((o, i) => out.write(`  ${i + 1}. ${optionName(o)}  [${terminalLine(o.kind)}]${i === chosen ? '  (Enter)' : ''}\n`));
      const promptText = () => `Choose 1-${options.length}${process.stdin.isTTY ? ' (or ↑/↓ and Enter)' : ''}${chosen >= 0 ? ` [${chosen + 1}. ${optionName(options[chosen])}]` : ''}: `;
      const onKey = (_: string, key: { name?: string } | undefined) => {
        if (key?.name !== 'up' && key?.name !== 'down') return;
        chosen = chosen < 0 ? (key.name === 'up' ? options.length - 1 : 0) : (chosen + (key.name === 'up' ? options.length - 1 : 1)) % options.length;
        readline.clearLine(out, 0);
        readline.cursorTo(out, 0);
        out.write(promptText());
      };
      const finish = (answer: string | undefined) => {
        process.stdin.off('keypress', onKey);
        // The option the person chose, echoed as the agent named it.
        const picked = options.find((o) => o.optionId === answer);
        if (picked) out.write(`→ ${optionName(picked)}\n`);
        signal.removeEventListener('abort', onAbort);
        renderer.resume();
        resolve(answer);
      };
      const onAbort = () => {
        out.write('\n(permission request withdrawn)\n');
        finish(undefined);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      if (process.stdin.isTTY) process.stdin.on('keypress', onKey);
      const ask = () =>
        rl.question(promptText(), { signal }, (answer) => {
          const trimmed = answer.trim();
          if (trimmed === '' && chosen >= 0) return finish(options[chosen].optionId);
          const n = Number(trimmed);
          if (Number.isInteger(n) && n >= 1 && n <= options.length) return finish(options[n - 1].optionId);
          out.write(`Please type a number from 1 to ${options.length}.\n`);
          ask();
        });
      ask();
    });
}

// Allow once, else reject once, else reject always; -1 (no default: Enter asks for a number)
// when granting forever is all the agent offers.
function defaultOption(options: PermissionOption[]): number {
  for (const kind of ['allow_once', 'reject_once', 'reject_always'] as const) {
    const at = options.findIndex((o) => o.kind === kind);
    if (at >= 0) return at;
  }
  return -1;
}

