'use strict';
// Starts `boardbridge serve` for one sketch folder and stops it. The bridge prints
// its panel URL (with the token) on stdout; nothing else is read from it.
const { spawn } = require('node:child_process');

const URL_PATTERN = /http:\/\/127\.0\.0\.1:\d+\/[\w-]+\//;
const START_TIMEOUT_MS = 60_000;

/**
 * The command line for a sketch: `command` is the program and its first arguments.
 * @param {{ command: string[], sketch: string, board?: string, agent?: string, agentCommand?: string, embedFrom: string[] }} o
 * @returns {string[]}
 */
function serveArgs(o) {
  const args = [...o.command.slice(1), 'serve', o.sketch];
  if (o.board) args.push('--board', o.board);
  if (o.agentCommand) args.push('--agent-command', o.agentCommand);
  else if (o.agent) args.push('--agent', o.agent);
  if (o.embedFrom.length) args.push('--embed-from', ...o.embedFrom);
  return args;
}

class BridgeProcess {
  /** @param {{ command: string[], args: string[], cwd: string, env: NodeJS.ProcessEnv }} o */
  constructor(o) {
    this.options = o;
    this.output = '';
    this.child = undefined;
  }

  /** Resolves with the panel URL; rejects with what the bridge said when it fails to start. */
  start() {
    const { command, args, cwd, env } = this.options;
    const child = spawn(command[0], args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    child.stdout.setEncoding('utf8').on('data', (t) => (this.output = (this.output + t).slice(-8000)));
    child.stderr.setEncoding('utf8').on('data', (t) => (this.output = (this.output + t).slice(-8000)));
    return new Promise((resolve, reject) => {
      const fail = (why) => {
        clearTimeout(timer);
        reject(new Error(`${why}. boardbridge said:\n${this.output.trim() || '(nothing)'}\nCheck the setting boardbridge.command (now ${JSON.stringify(command)}).`));
      };
      const timer = setTimeout(() => fail(`boardbridge serve printed no panel URL within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
      child.on('error', (error) => fail(`boardbridge could not be started (${error.message})`));
      child.on('exit', (code, signal) => fail(`boardbridge serve stopped (${signal ?? 'exit ' + code}) before the panel was ready`));
      child.stdout.on('data', () => {
        const match = URL_PATTERN.exec(this.output);
        if (!match) return;
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve(match[0]);
      });
    });
  }

  /** SIGTERM lets the bridge close its agent; it is killed if it has not gone after 10 s. */
  async stop() {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

module.exports = { BridgeProcess, serveArgs };
