// Starts the built `boardbridge serve` on a temporary sketch with the real
// claude-code-acp agent pointed at the scripted model server, and stops it the
// way a person would (SIGTERM, so the bridge closes its agent), killing it if not.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { agentLaunch } from '../support/agents.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import type { ModelScript } from '../support/model-server/script.js';
import { cliMain, tempSketch } from '../e2e/run-cli.js';

export interface ServedPanel {
  url: string;
  port: number;
  token: string;
  sketch: string;
  ino: string;
  model: ModelServer;
  output(): string;
  /** Agent processes the bridge has started and not ended (children running claude-code-acp or the stand-in). */
  agentProcesses(): number;
  stop(): Promise<void>;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export async function servePanel(scriptFor: (sketch: { sketch: string; ino: string }) => ModelScript, extraArgs: string[] = []): Promise<ServedPanel> {
  const { root, sketch, ino } = tempSketch();
  const model = await startModelServer(scriptFor({ sketch, ino }));
  const launch = agentLaunch('claude-code-acp', model.url, root);
  const served = await startServe([sketch, '--agent-command', claudeCommand(launch), ...extraArgs], { ...launch.env, BOARDBRIDGE_STATE_DIR: path.join(root, 'state'), CI: 'true' }, () => model.close());
  return { ...served, sketch, ino, model };
}

/** The real claude-code-acp as one `--agent-command` line. */
export function claudeCommand(launch: { command: string; args: string[] }): string {
  return [launch.command, ...launch.args].map(quote).join(' ');
}

export type ServeProcess = Omit<ServedPanel, 'sketch' | 'ino' | 'model'>;

/**
 * Runs `boardbridge serve <args>` until it prints its URL; `stop` ends it (SIGTERM), then runs `after`.
 * `program` is the checkout's build unless a test names another (an installed `boardbridge`).
 */
export async function startServe(
  args: string[],
  env: NodeJS.ProcessEnv,
  after: () => Promise<void> = async () => undefined,
  program: string[] = [process.execPath, cliMain],
): Promise<ServeProcess> {
  // Tests run on desktops too: no real browser window unless a test names its own $BROWSER.
  const noOpen = env.BROWSER ? [] : ['--no-open'];
  const child = spawn(program[0]!, [...program.slice(1), 'serve', ...args, ...noOpen], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (t: string) => (output += t));
  child.stderr!.setEncoding('utf8').on('data', (t: string) => (output += t));
  const stop = async () => {
    await stopProcess(child);
    await after();
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`boardbridge serve printed no URL within 60 s:\n${output}`)), 60_000);
      const look = () => {
        const match = /http:\/\/127\.0\.0\.1:\d+\/[\w-]+\//.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[0]);
        }
      };
      child.stdout!.on('data', look);
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`boardbridge serve exited (${code}) before printing its URL:\n${output}`));
      });
    });
    const parsed = new URL(url);
    return { url, port: Number(parsed.port), token: parsed.pathname.split('/')[1]!, output: () => output, agentProcesses: () => agentChildren(child.pid!), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

export function agentChildren(parent: number): number {
  let count = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent pid; the command name (field 2) may hold spaces.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent && /claude-code-acp|standin-agent/.test(readFileSync(`/proc/${name}/cmdline`, 'utf8'))) count++;
    } catch {
      // the process ended while we looked
    }
  }
  return count;
}
