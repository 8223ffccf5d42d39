'use strict';
// Starts `boardbridge serve` for one sketch folder, finds it again after the IDE window
// reloads, and stops it. The bridge runs detached with its output in a log file, so a
// reload (which restarts the extension host) leaves it and its agent running: the new
// extension host re-attaches to the same session. While the extension host lives it holds
// the bridge's `attached` request open, so `--idle-exit` makes the bridge stop by itself
// only once the IDE window is gone and no panel has been connected for a while.
const { spawn } = require('node:child_process');
const { closeSync, existsSync, mkdirSync, openSync, readFileSync } = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const URL_PATTERN = /http:\/\/127\.0\.0\.1:\d+\/[\w-]+\//;
const START_TIMEOUT_MS = 60_000;

/** Where build-vsix.mjs puts the bundled bridge inside the extension's folder. */
const BUNDLED_BRIDGE = ['bridge', 'dist', 'cli', 'boardbridge.cjs'];

/**
 * The oldest Node.js the bundled bridge starts on: execa needs 18.19 (`addAbortListener` of
 * node:events; on 18.17 the bundle fails to load with a SyntaxError). Arduino IDE 2.2 to 2.3.4
 * (Electron 23 and 27) and VS Code before 1.90 run extensions on older ones.
 */
const BUNDLED_MIN_NODE = [18, 19, 0];

const olderThan = (version, min) => {
  const parts = version.split('.').map(Number);
  for (let i = 0; i < min.length; i++) if ((parts[i] || 0) !== min[i]) return (parts[i] || 0) < min[i];
  return false;
};

/**
 * How to run boardbridge: the `boardbridge.command` setting when it names a program, else the
 * bridge bundled in the .vsix on the IDE's own executable (Electron run as Node), else
 * `boardbridge` on PATH (the extension run from its sources). Throws, saying what to do, when
 * the IDE's runtime is too old for the bundled bridge.
 * @param {string[]} configured @param {string | undefined} extensionPath @param {string} [hostNode] the IDE's Node.js version
 * @returns {{ command: string[], env: Record<string, string> }}
 */
function bridgeCommand(configured, extensionPath, hostNode = process.versions.node) {
  if (configured.length > 0) return { command: configured, env: {} };
  const bundled = extensionPath && path.join(extensionPath, ...BUNDLED_BRIDGE);
  if (bundled && existsSync(bundled)) {
    if (olderThan(hostNode, BUNDLED_MIN_NODE)) {
      throw new Error(
        `This IDE runs extensions on Node.js ${hostNode}; the boardbridge bridge in this extension needs Node.js ${BUNDLED_MIN_NODE.join('.')} or newer ` +
          '(Arduino IDE 2.3.5 or later, VS Code 1.90 or later). Update the IDE, or install boardbridge on a newer Node.js (npm install -g boardbridge) ' +
          'and set boardbridge.command to it, e.g. ["boardbridge"] or ["npx", "boardbridge"].',
      );
    }
    return { command: [process.execPath, bundled], env: { ELECTRON_RUN_AS_NODE: '1' } };
  }
  return { command: ['boardbridge'], env: {} };
}

/**
 * The command line for a sketch: `command` is the program and its first arguments.
 * @param {{ command: string[], sketch: string, board?: string, agent?: string, agentCommand?: string, embedFrom: string[], idleExitSeconds?: number }} o
 * @returns {string[]}
 */
function serveArgs(o) {
  // The panel shows in the IDE's own view: no external browser.
  // The IDE remembers the agent picked on the panel in boardbridge.agent, not the config file.
  const args = [...o.command.slice(1), 'serve', o.sketch, '--no-open', '--no-remember-agent'];
  if (o.board) args.push('--board', o.board);
  if (o.agentCommand) args.push('--agent-command', o.agentCommand);
  else if (o.agent) args.push('--agent', o.agent);
  if (o.idleExitSeconds) args.push('--idle-exit', String(o.idleExitSeconds));
  if (o.embedFrom.length) args.push('--embed-from', ...o.embedFrom);
  return args;
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

/** Whether `url` is a boardbridge panel that still answers (its token is in the URL). */
function answers(url) {
  return new Promise((resolve) => {
    const request = http.get(url, { timeout: 3000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}

class BridgeProcess {
  /** @param {{ command: string[], args: string[], cwd: string, env: NodeJS.ProcessEnv, logFile: string }} o */
  constructor(o) {
    this.options = o;
    this.pid = undefined;
    this.url = undefined;
  }

  /**
   * The bridge an earlier extension host started for this sketch, if it still runs and answers.
   * @param {{ pid: number, url: string, logFile?: string } | undefined} saved
   */
  static async reattach(saved) {
    if (!saved?.pid || !saved.url || !alive(saved.pid) || !(await answers(saved.url))) return undefined;
    const bridge = new BridgeProcess({ logFile: saved.logFile });
    bridge.pid = saved.pid;
    bridge.url = saved.url;
    return bridge;
  }

  /** Whether the bridge process still runs. */
  get running() {
    return Boolean(this.pid) && alive(this.pid);
  }

  /** The end of what the bridge wrote to its log. */
  logTail() {
    try {
      return readFileSync(this.options.logFile, 'utf8').slice(-8000).trim();
    } catch {
      return '';
    }
  }

  /**
   * Holds `GET <url>attached` open while this window lives: the bridge counts the IDE as
   * connected even before its view is first shown. Loopback does not drop it; if the bridge
   * ends, the watch on its process reports that.
   */
  attach() {
    if (!this.url || this.hold) return;
    this.hold = http.get(`${this.url}attached`, { agent: false }, (response) => response.resume());
    this.hold.on('error', () => undefined);
  }

  /** The window goes away (the extension host stops): the bridge's idle countdown starts. */
  detach() {
    const request = this.hold;
    this.hold = undefined;
    request?.destroy();
  }

  /** What to remember for a later `reattach`. */
  saved() {
    return { pid: this.pid, url: this.url, logFile: this.options.logFile };
  }

  /**
   * Resolves with the panel URL; rejects when the bridge fails to start, with `log` (what it
   * said) and `commandIsCause` (whether the command itself is what failed).
   */
  start() {
    const { command, args, cwd, env, logFile } = this.options;
    mkdirSync(path.dirname(logFile), { recursive: true });
    const log = openSync(logFile, 'w');
    let child;
    try {
      child = spawn(command[0], args, { cwd, env, stdio: ['ignore', log, log], detached: true });
    } finally {
      closeSync(log);
    }
    this.pid = child.pid;
    const said = () => this.logTail();
    return new Promise((resolve, reject) => {
      let poll;
      const finish = (error, url) => {
        clearTimeout(timer);
        clearInterval(poll);
        child.removeAllListeners();
        child.unref();
        if (error) reject(error);
        else resolve(url);
      };
      // `commandIsCause`: the program the setting names did not start, or what ran is not boardbridge.
      const fail = (why, commandIsCause) => {
        const error = new Error(why);
        error.log = said().trim();
        error.commandIsCause = commandIsCause ?? !/^boardbridge[: ]/m.test(error.log);
        finish(error);
      };
      const timer = setTimeout(() => fail(`boardbridge serve printed no panel URL within ${START_TIMEOUT_MS / 1000} s`, false), START_TIMEOUT_MS);
      child.on('error', (error) =>
        existsSync(cwd) ? fail(`${JSON.stringify(command[0])} could not be started (${error.message})`, true) : fail(`the sketch folder ${cwd} does not exist`, false),
      );
      child.on('exit', (code, signal) => fail(`boardbridge serve stopped (${signal ?? 'exit ' + code}) before the panel was ready`));
      poll = setInterval(() => {
        const match = URL_PATTERN.exec(said());
        if (!match) return;
        this.url = match[0];
        finish(undefined, match[0]);
      }, 100);
    });
  }

  /** SIGTERM lets the bridge close its agent; it is killed if it has not gone after 10 s. */
  async stop() {
    const pid = this.pid;
    const signal = (name) => {
      try {
        process.kill(pid, name);
      } catch {
        // gone already
      }
    };
    this.detach();
    if (!pid || !alive(pid)) return;
    signal('SIGTERM');
    for (let waited = 0; alive(pid) && waited <= 12_000; waited += 50) {
      if (waited === 10_000) signal('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

module.exports = { BridgeProcess, bridgeCommand, serveArgs };
