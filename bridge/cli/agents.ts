// `boardbridge agents` and `boardbridge doctor`: which agents are installed, and
// what is missing with the command that fixes it.
import { execFileSync } from 'node:child_process';
import type { Command } from 'commander';
import { KNOWN_AGENTS } from '../agents/profiles.js';
import { EXIT, printError } from './errors.js';

interface AgentStatus {
  id: string;
  title: string;
  installed: boolean;
  command?: string;
  via?: string;
  credentials: string;
  install?: string;
}

export async function agentStatuses(env: NodeJS.ProcessEnv = process.env): Promise<AgentStatus[]> {
  const { locate } = await import('../agents/resolve.js');
  return KNOWN_AGENTS.map((profile) => {
    const found = locate(profile, env);
    const keys = profile.authEnv.filter((h) => env[h.env]).map((h) => h.env);
    return {
      id: profile.id,
      title: profile.title,
      installed: Boolean(found),
      command: found?.command,
      via: found?.via,
      credentials: keys.length ? `${keys.join(', ')} set` : `no ${profile.authEnv.map((h) => h.env).join('/')}; or ${profile.loginCommand}`,
      install: found ? undefined : profile.npmPackage ? `npm install -g ${profile.npmPackage}` : undefined,
    };
  });
}

export function registerAgents(program: Command): void {
  program
    .command('agents')
    .description('list the known agents and whether each is installed')
    .option('--json', 'print JSON')
    .action(async (flags: { json?: boolean }) => {
      const statuses = await agentStatuses();
      if (flags.json) {
        process.stdout.write(JSON.stringify(statuses, null, 2) + '\n');
        return;
      }
      for (const s of statuses) {
        process.stdout.write(`${s.installed ? '✓' : '✗'} ${s.id.padEnd(7)} ${s.title.padEnd(22)} ${s.installed ? `${s.command} (${s.via})` : `not installed — ${s.install}`}\n`);
      }
      process.stdout.write('Any other ACP agent: boardbridge chat --agent-command "<command line>"\n');
    });

  program
    .command('doctor')
    .description('check what boardbridge needs and say how to get what is missing')
    .action(async () => {
      const { configPath, findOnPath, loadConfig } = await import('../agents/resolve.js');
      let problems = 0;
      const say = (ok: boolean, what: string, fix?: string) => {
        if (!ok) problems++;
        process.stdout.write(`${ok ? '✓' : '✗'} ${what}${!ok && fix ? `\n    → ${fix}` : ''}\n`);
      };
      const major = Number(process.versions.node.split('.')[0]);
      say(major >= 20, `Node.js ${process.versions.node}`, 'install Node.js 20 or newer');
      try {
        loadConfig(undefined);
        say(true, `config ${configPath()}`);
      } catch (error) {
        say(false, `config ${configPath()}`, (error as Error).message);
      }
      const statuses = await agentStatuses();
      for (const s of statuses) say(s.installed, `${s.title}: ${s.installed ? s.command : 'not installed'}; credentials: ${s.credentials}`, s.install);
      if (!statuses.some((s) => s.installed)) problems++;
      for (const [tool, fix] of [
        ['arduino-cli', 'install arduino-cli, or Arduino IDE 2.x which bundles it'],
        ['arduino-builder', 'apt-get install arduino-builder arduino-core-avr (Debian)'],
        ['avrdude', 'apt-get install avrdude'],
      ] as const) {
        const where = findOnPath(tool);
        process.stdout.write(`${where ? '✓' : '·'} ${tool}: ${where ?? `not found (optional) — ${fix}`}\n`);
      }
      if (findOnPath('avr-gcc')) {
        try {
          const version = execFileSync('avr-gcc', ['-dumpversion'], { encoding: 'utf8' }).trim();
          process.stdout.write(`✓ avr-gcc ${version}\n`);
        } catch (error) {
          printError(error);
        }
      }
      process.stdout.write(problems ? `${problems} problem(s) found.\n` : 'All set.\n');
      process.exitCode = problems ? EXIT.error : EXIT.ok;
    });
}
