// `boardbridge mcp --connect URL`: the stdio side of the hardware MCP server.
import type { Command } from 'commander';
// Kept here so `--help` does not load the MCP SDK; stdio-relay.ts uses the same name.
const MCP_TOKEN_ENV = 'BOARDBRIDGE_MCP_TOKEN';
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
