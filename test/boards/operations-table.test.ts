// Every board operation has one name, one schema, one read-only flag and one consent rule on
// every face: the CLI's commander commands, the terminals' in-process commands and the MCP tools
// are all read here from the objects the bridge generates (a real MCP server's tools/list, the
// real commander program, the terminal table), never from a list typed in the test.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { SerialHub } from '../../boards/index.js';
import { operationContext, type OperationConsent } from '../../boards/operation-context.js';
import { fieldsOf, terminalCommands } from '../../boards/operation-faces.js';
import { BOARD_OPERATIONS, consentBefore, offers, toolName, type ConsentKind } from '../../boards/operations.js';
import { registerBoardCommands } from '../../bridge/cli/board.js';
import { operationTools } from '../../bridge/mcp/command-tools.js';
import { asksConsent } from '../../bridge/mcp/hardware-tool.js';
import { toolServer } from '../../bridge/mcp/tool-server.js';
import { recordedIo } from '../rig/command-io.js';

interface Asked {
  operation: string;
  question: string;
  kind: ConsentKind;
}

function refusingContext(asked: Asked[]) {
  const consent: OperationConsent = async (operation, question, kind) => {
    asked.push({ operation, question, kind });
    return { granted: false, reason: 'the test refuses' };
  };
  return operationContext({ hub: new SerialHub(), consent, requestUploadConsent: async () => undefined });
}

async function listedTools() {
  const tools = operationTools(refusingContext([]), { cwd: process.cwd(), env: {} });
  const server = toolServer(tools, async () => ({ granted: false }));
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  await server.connect(theirs);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(ours);
  const listed = (await client.listTools()).tools;
  await client.close();
  return { tools, listed };
}

/** The commander command at `words` (`sim start` is `sim` → `start`). */
function cliCommand(program: Command, words: string[]): Command | undefined {
  let at: Command | undefined = program;
  for (const word of words) at = at?.commands.find((c) => c.name() === word);
  return at;
}

describe('the one table of board operations', () => {
  it('gives every operation one name: the command words, and the same in snake_case as its MCP tool, none twice', () => {
    const names = BOARD_OPERATIONS.map((o) => o.name);
    expect(new Set(names).size).toBe(names.length);
    const tools = BOARD_OPERATIONS.filter((o) => offers(o, 'mcp')).map(toolName);
    expect(new Set(tools).size).toBe(tools.length);
    for (const operation of BOARD_OPERATIONS) expect(toolName(operation)).toBe(operation.name.replace(/[ -]/g, '_'));
  });

  it('the MCP server lists each operation with its schema, read-only hint and destructive hint from the entry', async () => {
    const { tools, listed } = await listedTools();
    const offered = BOARD_OPERATIONS.filter((o) => offers(o, 'mcp'));
    expect(listed.map((t) => t.name).sort()).toEqual(offered.map(toolName).sort());
    for (const operation of offered) {
      const tool = listed.find((t) => t.name === toolName(operation))!;
      const generated = tools.find((t) => t.name === toolName(operation))!;
      expect(generated.input, operation.name).toBe(operation.input);
      expect(Object.keys(tool.inputSchema.properties ?? {}), operation.name).toEqual(Object.keys(operation.input));
      const required = fieldsOf(operation).filter((f) => !f.optional).map((f) => f.key);
      expect(tool.inputSchema.required ?? [], operation.name).toEqual(required);
      expect(tool.annotations?.readOnlyHint, operation.name).toBe(operation.readOnly);
      const asks = operation.changesDevice !== false || operation.runsProjectCode;
      expect(tool.annotations?.destructiveHint, operation.name).toBe(asks);
      expect(asksConsent(generated), operation.name).toBe(asks);
      // Read-only and asking never go together.
      if (operation.readOnly) expect(asks, operation.name).toBe(false);
    }
  });

  it('the CLI has each command at its words, with an argument per positional and an option per other field of the schema', () => {
    const program = new Command();
    registerBoardCommands(program);
    for (const operation of BOARD_OPERATIONS.filter((o) => offers(o, 'command'))) {
      const command = cliCommand(program, operation.name.split(' '));
      expect(command, operation.name).toBeDefined();
      const fields = fieldsOf(operation);
      expect(command!.registeredArguments.map((a) => a.name()), operation.name).toEqual((operation.args ?? []).map(String));
      const flags = command!.options.map((o) => o.long);
      for (const field of fields.filter((f) => !f.positional)) expect(flags, `${operation.name} --${field.flag}`).toContain(`--${field.flag}`);
      expect(flags, operation.name).toContain('--workspace');
      expect(flags.length, operation.name).toBe(fields.filter((f) => !f.positional).length + 3); // and --json, --yes, --workspace
      for (const field of fields.filter((f) => f.positional)) {
        const argument = command!.registeredArguments.find((a) => a.name() === field.key)!;
        expect(argument.required, `${operation.name} ${field.key}`).toBe(!field.optional);
      }
    }
    // No command the table does not have.
    const words = new Set(BOARD_OPERATIONS.filter((o) => offers(o, 'command')).map((o) => o.name.split(' ')[0]));
    expect(program.commands.map((c) => c.name()).sort()).toEqual([...words].sort());
  });

  it("a terminal's `boardbridge <words> --help` is each operation's help and usage, every flag of its schema in it", async () => {
    const table = terminalCommands(refusingContext([]));
    for (const operation of BOARD_OPERATIONS.filter((o) => offers(o, 'command'))) {
      const [word, ...rest] = operation.name.split(' ');
      const io = recordedIo();
      expect(await table.get(word)!([...rest, '--help'], io), operation.name).toBe(0);
      expect(io.output(), operation.name).toContain(operation.help);
      expect(io.output(), operation.name).toContain(`usage: boardbridge ${operation.name}`);
      for (const field of fieldsOf(operation)) expect(io.output(), `${operation.name} ${field.key}`).toContain(field.positional ? field.key : `--${field.flag}`);
    }
  });

  it('an operation that asks first asks the same question, of the same kind, from a terminal and over MCP', async () => {
    const cases: Array<{ argv: string[]; input: Record<string, unknown> }> = [
      { argv: ['run-script', 'main.py', '--port', '/dev/bb-no-such-port'], input: { file: 'main.py', port: '/dev/bb-no-such-port' } },
      { argv: ['build', 'blink.X', '--conf', 'default'], input: { project: 'blink.X', conf: 'default' } },
    ];
    for (const { argv, input } of cases) {
      const operation = BOARD_OPERATIONS.find((o) => o.name === argv[0])!;
      expect(consentBefore(operation), operation.name).toBeDefined();
      const terminalAsked: Asked[] = [];
      const io = recordedIo();
      expect(await terminalCommands(refusingContext(terminalAsked)).get(argv[0])!(argv.slice(1), io)).toBe(1);
      expect(io.output()).toContain('Not done:');
      const mcpAsked: Asked[] = [];
      const tool = operationTools(refusingContext(mcpAsked), { cwd: process.cwd(), env: {} }).find((t) => t.name === toolName(operation))!;
      const question = await tool.consentQuestion!(input as never);
      expect(terminalAsked).toEqual([{ operation: toolName(operation), question: question!.question, kind: question!.kind }]);
      expect(question!.kind).toBe(consentBefore(operation));
    }
  });

  it('read-only operations run without asking on every face (a terminal and MCP alike)', () => {
    for (const operation of BOARD_OPERATIONS.filter((o) => o.readOnly)) expect(consentBefore(operation), operation.name).toBeUndefined();
  });
});
