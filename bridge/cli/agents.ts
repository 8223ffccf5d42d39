// `boardbridge agents` and `boardbridge doctor`: which agents are installed and
// logged in, their versions, and what is missing with the command that fixes it.
import { execFileSync } from 'node:child_process';
import type { Command } from 'commander';
import { agentStatuses } from '../agents/status.js';
import { EXIT, printError } from './errors.js';

export function registerAgents(program: Command): void {
  program
    .command('agents')
    .description('list the known agents: installed, logged in, version (the first ready one is the default)')
    .option('--json', 'print JSON')
    .option('--refresh', 'update the copy of the ACP Registry index from the network first')
    .action(async (flags: { json?: boolean; refresh?: boolean }) => {
      const { loadRegistry, refreshRegistry } = await import('../agents/registry/registry.js');
      if (flags.refresh) {
        try {
          const fresh = await refreshRegistry();
          process.stderr.write(`ACP Registry: ${fresh.agents.length} agents saved to ${fresh.source}${fresh.skipped.length ? `; skipped ${fresh.skipped.join('; ')}` : ''}\n`);
        } catch (error) {
          printError(error);
          process.exitCode = EXIT.error;
          return;
        }
      }
      const statuses = agentStatuses();
      if (flags.json) {
        process.stdout.write(JSON.stringify(statuses, null, 2) + '\n');
        return;
      }
      const defaultId = statuses.find((s) => s.ready)?.id;
      process.stdout.write(`${'agent'.padEnd(9)} ${'installed'.padEnd(10)} ${'logged in'.padEnd(10)} ${'version'.padEnd(9)} details\n`);
      for (const s of statuses) {
        const details = [
          s.installed ? `${s.command} (${s.via})` : `install: ${s.install}`,
          s.authenticated ? s.credentials : `log in: ${s.login ?? s.credentials}`,
          s.nodeProblem,
        ].filter(Boolean);
        process.stdout.write(`${(s.id + (s.id === defaultId ? '*' : '')).padEnd(9)} ${(s.installed ? 'yes' : 'no').padEnd(10)} ${(s.authenticated ? 'yes' : 'no').padEnd(10)} ${(s.version ?? '-').padEnd(9)} ${details.join('; ')}\n`);
      }
      process.stdout.write(defaultId ? `* the default: the first agent installed and logged in (--agent picks another)\n` : 'No agent is installed and logged in yet: npm start lists the options.\n');
      const registry = loadRegistry();
      if (registry.agents.length) process.stdout.write(`From the ACP Registry (--agent <id>; ${registry.source}): ${registry.agents.map((a) => a.id).join(', ')}\n`);
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
      const statuses = agentStatuses();
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
