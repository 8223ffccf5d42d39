// `boardbridge mcp --connect URL`: the stdio side of the hardware MCP server.
import type { Command } from 'commander';
import { MCP_TOKEN_ENV } from '../mcp/names.js';
import { EXIT } from './errors.js';

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('serve the running bridge\'s hardware tools over stdio (agents start this themselves)')
    .requiredOption('--connect <url>', 'the bridge\'s MCP URL (the token comes in ' + MCP_TOKEN_ENV + ')')
    .action(async (flags: { connect: string }) => {
      const token = process.env[MCP_TOKEN_ENV];
      if (!token) {
        process.stderr.write(`boardbridge mcp: ${MCP_TOKEN_ENV} is not set; this command is started by the bridge for its agent\n`);
        process.exitCode = EXIT.usage;
        return;
      }
      const { relayStdioToHttp } = await import('../mcp/stdio-relay.js');
      await relayStdioToHttp(flags.connect, token);
    });
}
