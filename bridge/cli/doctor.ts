// `boardbridge doctor`: checks what boardbridge needs, each line from what is there (a config
// file that exists, an agent installed, an agent logged in: status.ts reads the files each
// agent's own login writes), and ends with the agent that is ready or the one next step.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { AgentStatus } from '../agents/status.js';
import { cliCommand } from '../cli-entry.js';
import { EXIT } from './errors.js';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check what boardbridge needs (Node.js, the config file, agents installed and logged in, toolchains) and say the next step')
    .option('--config <file>', 'config file (default: ~/.config/boardbridge/config.json)')
    .action(async (flags: { config?: string }) => {
      process.exitCode = await doctor(flags.config);
    });
}

async function doctor(configFile: string | undefined): Promise<number> {
  const [{ configPath, findOnPath, loadConfig }, { agentStatuses }] = await Promise.all([import('../agents/resolve.js'), import('../agents/status.js')]);
  const out = (mark: '✓' | '✗' | '·', what: string, fix?: string) => process.stdout.write(`${mark} ${what}${fix ? `\n    → ${fix}` : ''}\n`);
  // The first thing that stops boardbridge, whatever the agents.
  let broken: string | undefined;

  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 20) out('✓', `Node.js ${process.versions.node}`);
  else (broken = 'install Node.js 20 or newer'), out('✗', `Node.js ${process.versions.node}`, broken);

  const config = configFile ?? configPath();
  if (!existsSync(config)) {
    if (configFile) (broken = 'give an existing file to --config, or leave it out for the defaults'), out('✗', `config ${config} does not exist`, broken);
    else out('·', `no config file (defaults; ${config} is read when it exists)`);
  } else {
    try {
      await loadConfig(config);
      out('✓', `config ${config}`);
    } catch (error) {
      broken = `fix ${(error as Error).message}`;
      out('✗', `config ${config}`, (error as Error).message);
    }
  }

  const statuses = agentStatuses();
  const anyReady = statuses.some((s) => s.ready);
  // An agent not ready is a problem only while no other one is.
  for (const s of statuses) out(s.ready ? '✓' : s.installed && !anyReady ? '✗' : '·', agentLine(s), s.installed && !s.ready ? (s.nodeProblem ?? signIn(s)) : undefined);

  for (const [tool, fix] of [
    ['arduino-cli', 'install arduino-cli, or Arduino IDE 2.x which bundles it'],
    ['arduino-builder', 'apt-get install arduino-builder arduino-core-avr (Debian)'],
    ['avrdude', 'apt-get install avrdude'],
  ] as const) {
    const where = findOnPath(tool);
    out(where ? '✓' : '·', `${tool}: ${where ?? `not found (optional) — ${fix}`}`);
  }
  if (findOnPath('avr-gcc')) {
    try {
      out('✓', `avr-gcc ${execFileSync('avr-gcc', ['-dumpversion'], { encoding: 'utf8' }).trim()}`);
    } catch (error) {
      out('✗', `avr-gcc does not run: ${(error as Error).message.split('\n')[0]}`);
    }
  }

  const ready = statuses.find((s) => s.ready);
  if (ready && !broken) {
    process.stdout.write(`ready: ${ready.id} (${ready.title}) — ${cliCommand('chat')} starts it\n`);
    return EXIT.ok;
  }
  process.stdout.write(`${ready ? `ready: ${ready.id} (${ready.title}), but ` : ''}next step: ${nextStep(statuses, broken)}\n`);
  return EXIT.error;
}

/** How to give an agent its credentials: its login, else the key it reads. */
function signIn(s: AgentStatus): string {
  const key = s.keyEnv.length ? `set ${s.keyEnv.join(' or ')} (export ${s.keyEnv[0]}=...${s.keyNote ? `; ${s.keyNote}` : ''})` : undefined;
  if (s.login) return `log in: ${s.login}${key ? `, or ${key}` : ''}`;
  return key ?? s.credentials;
}

function agentLine(s: AgentStatus): string {
  if (!s.installed) return `${s.title}: not installed${s.install ? ` (${s.install})` : ''}`;
  const installed = `installed ${s.command}${s.version ? ` ${s.version}` : ''}`;
  if (s.nodeProblem) return `${s.title}: ${installed}; ${s.authenticated ? `logged in (${s.credentials})` : 'not logged in'}; cannot run here`;
  return `${s.title}: ${installed}; ${s.authenticated ? `logged in (${s.credentials})` : 'not logged in'}`;
}

// The one thing to do now: fix what is broken, else log in to the first agent installed (the
// order is the default's: free plans first), else install the first that can be.
function nextStep(statuses: AgentStatus[], broken: string | undefined): string {
  if (broken) return broken;
  const installed = statuses.find((s) => s.installed && !s.authenticated && !s.nodeProblem);
  if (installed) return `${installed.title}: ${signIn(installed)}`;
  const installable = statuses.find((s) => !s.installed && s.install);
  if (installable) return `install ${installable.title}: ${installable.install}, then log in (${cliCommand('doctor')} says how)`;
  return `${cliCommand('chat')} lists the agents and how to get one`;
}
