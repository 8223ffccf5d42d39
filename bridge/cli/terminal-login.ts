// Terminal login for `chat`: when the agent needs a login that it offers as a terminal
// command (ACP terminal auth), the person runs it here, in the same terminal, and the
// chat starts again.
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { commandLine, type AuthRequiredError, type TerminalLogin } from '../errors.js';
import { terminalLine, terminalText } from './terminal-text.js';

/** Asks, runs the agent's login command with the terminal handed over, and says whether it succeeded. */
export async function offerLogin(error: AuthRequiredError, out: NodeJS.WriteStream = process.stdout): Promise<boolean> {
  const login = error.logins[0];
  out.write(`${terminalText(error.message)}\nIt offers a login in this terminal: ${terminalLine(`${commandLine(login)}   (${login.name})`)}\n`);
  if (!process.stdin.isTTY) {
    out.write('Run that in a terminal, then start the chat again.\n');
    return false;
  }
  if (!(await confirm('Log in now? [Y/n] ', out))) return false;
  const code = await runLogin(login);
  if (code === 0) {
    out.write('Logged in; starting the agent again.\n');
    return true;
  }
  out.write(`The login ended with ${code === null ? 'a signal' : `exit code ${code}`}; nothing changed.\n`);
  return false;
}

function confirm(question: string, out: NodeJS.WriteStream): Promise<boolean> {
  const rl = readline.createInterface({ input: process.stdin, output: out, terminal: true });
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      resolve(!/^\s*n/i.test(answer));
    });
    rl.once('SIGINT', () => {
      rl.close();
      resolve(false);
    });
  });
}

// The login owns the terminal while it runs: Ctrl-C goes to it, not to the chat.
function runLogin(login: TerminalLogin): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(login.command, login.args, { stdio: 'inherit', env: { ...process.env, ...login.launchEnv, ...login.env } });
    const ignore = () => undefined;
    process.on('SIGINT', ignore);
    const done = (code: number | null) => {
      process.off('SIGINT', ignore);
      resolve(code);
    };
    child.once('error', () => done(127));
    child.once('exit', (code) => done(code));
  });
}
