// Runs the built `boardbridge` CLI as a person or a script would, collecting its
// JSON events, so end-to-end tests check what really comes out.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentLaunch } from '../../bridge/agents/resolve.js';
import type { BridgeEvent } from '../../bridge/session/events.js';
import { agentLaunch } from '../support/agents.js';

export const repoRoot = path.resolve(__dirname, '..', '..');
export const cliMain = path.join(repoRoot, 'dist', 'bridge', 'cli', 'main.js');

export interface CliRun {
  code: number | null;
  events: BridgeEvent[];
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string>;
  cwd?: string;
  /** Called for each event; may send the process a signal (e.g. SIGINT to cancel). */
  onEvent?: (event: BridgeEvent, child: { kill(signal: NodeJS.Signals): void }) => void;
}

export function runCli(args: string[], options: RunOptions = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliMain, ...args], {
      cwd: options.cwd ?? repoRoot,
      env: options.env ?? (process.env as Record<string, string>),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const events: BridgeEvent[] = [];
    let stdout = '';
    let stderr = '';
    let pending = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      stdout += text;
      pending += text;
      let nl;
      while ((nl = pending.indexOf('\n')) !== -1) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        if (!line.startsWith('{')) continue;
        const event = JSON.parse(line) as BridgeEvent;
        events.push(event);
        options.onEvent?.(event, child);
      }
    });
    child.stderr.on('data', (text: string) => (stderr += text));
    child.on('close', (code) => resolve({ code, events, stdout, stderr }));
  });
}

/** A fresh copy of the example sketch in a temporary folder: tests never touch the repository's. */
export function tempSketch(): { root: string; sketch: string; ino: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'bb-e2e-'));
  const sketch = path.join(root, 'Blink');
  mkdirSync(sketch);
  cpSync(path.join(repoRoot, 'examples', 'Blink'), sketch, { recursive: true });
  return { root, sketch, ino: path.join(sketch, 'Blink.ino') };
}

export const ofType = <T extends BridgeEvent['type']>(events: BridgeEvent[], type: T) =>
  events.filter((e): e is Extract<BridgeEvent, { type: T }> => e.type === type);

/** What BridgeSession.start needs to run the real claude-code-acp against `modelUrl`, state under `root`. */
export function claudeSession(modelUrl: string, root: string): { launch: AgentLaunch; env: Record<string, string> } {
  const agent = agentLaunch('claude-code-acp', modelUrl, root);
  return {
    launch: { id: 'claude', title: 'Claude Code (ACP)', command: agent.command, args: agent.args, env: {}, via: 'command' },
    env: { ...agent.env, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') },
  };
}

/** The stand-in ACP agent (test/support/standin-agent.mjs), for what no real agent does offline. */
export const standinLaunch: AgentLaunch = {
  id: 'standin',
  title: 'stand-in agent',
  command: process.execPath,
  args: [path.join(repoRoot, 'test', 'support', 'standin-agent.mjs')],
  env: {},
  via: 'command',
};
