// `boardbridge agents`: which agents are installed and logged in, their versions, and what
// is missing with the command that fixes it (`boardbridge doctor` registers beside it).
import type { Command } from 'commander';
import { agentStatuses } from '../agents/status.js';
import { cliCommand } from '../cli-entry.js';
import { registerDoctor } from './doctor.js';
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
      process.stdout.write(defaultId ? `* the default: the first agent installed and logged in (--agent picks another)\n` : `No agent is installed and logged in yet: ${cliCommand('chat')} lists the options.\n`);
      const registry = loadRegistry();
      if (registry.agents.length) process.stdout.write(`From the ACP Registry (--agent <id>; ${registry.source}): ${registry.agents.map((a) => a.id).join(', ')}\n`);
      process.stdout.write(`Any other ACP agent: ${cliCommand('chat --agent-command "<command line>"')}\n`);
    });


  registerDoctor(program);
}
