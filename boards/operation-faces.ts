// The faces every board operation gets from its entry in BOARD_OPERATIONS: the usage line and the
// argv parsing of `boardbridge <name> …` in a terminal (and the conversion the CLI's commander
// options share), the one way a call is asked for and run, and the command tables terminals use.
// Nothing here names an operation: a new entry in the table is a new command and tool.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { z } from 'zod';
import type { CommandIo, CommandTable, InProcessCommand, Outcome } from './command.js';
import { UsageError } from './commands/arguments.js';
import { operationContext, type OperationContext, type OperationContextParts } from './operation-context.js';
import { BOARD_OPERATIONS, consentFor, offers, toolName, type AnyOperation } from './operations.js';

/** What an input field is, as a command line writes it. */
export interface FieldShape {
  key: string;
  /** `--serial-in`, `--pin`: the flag, without dashes. */
  flag: string;
  short?: string;
  kind: 'string' | 'number' | 'boolean' | 'enum';
  array: boolean;
  optional: boolean;
  positional: boolean;
  description?: string;
  choices?: string[];
}

interface ZodDef {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string>;
}

const defOf = (schema: z.ZodType): ZodDef => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;

/** The fields of an operation's input, in schema order. */
export function fieldsOf(operation: AnyOperation): FieldShape[] {
  return Object.entries(operation.input as z.ZodRawShape).map(([key, schema]) => {
    let inner = schema as z.ZodType;
    let optional = false;
    for (let def = defOf(inner); def.type === 'optional' || def.type === 'default'; def = defOf(inner)) {
      optional = true;
      inner = def.innerType!;
    }
    let array = false;
    if (defOf(inner).type === 'array') {
      array = true;
      inner = defOf(inner).element!;
    }
    const def = defOf(inner);
    const kind = def.type === 'number' || def.type === 'boolean' || def.type === 'enum' ? def.type : 'string';
    return {
      key,
      flag: operation.flags?.[key] ?? key.replace(/_/g, '-').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
      ...(operation.short?.[key] ? { short: operation.short[key] as string } : {}),
      kind,
      array,
      optional,
      positional: operation.args?.includes(key) ?? false,
      ...((schema as z.ZodType).description ? { description: (schema as z.ZodType).description } : {}),
      ...(def.entries ? { choices: Object.values(def.entries) } : {}),
    };
  });
}

/** `boardbridge compile [sketch] [--fqbn <fqbn>] [--verbose]`, from the schema. */
export function usageOf(operation: AnyOperation): string {
  const fields = fieldsOf(operation);
  const words = fields
    .filter((f) => f.positional)
    .sort((a, b) => operation.args!.indexOf(a.key) - operation.args!.indexOf(b.key))
    .map((f) => (f.optional ? `[${f.key}${f.array ? '...' : ''}]` : `<${f.key}>`));
  const flags = fields
    .filter((f) => !f.positional)
    .map((f) => {
      const value = f.kind === 'boolean' ? '' : ` <${f.choices ? f.choices.join('|') : f.key}>`;
      const text = `--${f.flag}${value}${f.array ? ' ...' : ''}`;
      return f.optional ? `[${text}]` : text;
    });
  return ['boardbridge', operation.name, ...words, ...flags, '[--json]'].join(' ');
}

/** One flag's or argument's text (or texts) as the schema's value: numbers read, the rest as given. */
function valueOf(field: FieldShape, text: string | boolean | Array<string | boolean>): unknown {
  const one = (t: string | boolean): unknown => (field.kind === 'number' && typeof t === 'string' ? (t.trim() === '' ? Number.NaN : Number(t)) : t);
  if (Array.isArray(text)) return field.array ? text.map(one) : one(text[text.length - 1]);
  return field.array ? [one(text)] : one(text);
}

/**
 * The typed input from what a command line gave: `values` by field key (texts as written),
 * `positionals` in order. Shared by terminals (parseArgs) and the CLI (commander), so both take
 * and refuse the same things; errors name the flag or argument.
 */
export function inputOf(operation: AnyOperation, values: Record<string, string | boolean | Array<string | boolean> | undefined>, positionals: readonly string[]): unknown {
  const fields = fieldsOf(operation);
  const raw: Record<string, unknown> = {};
  for (const field of fields) {
    const given = values[field.key];
    if (given !== undefined && !field.positional) raw[field.key] = valueOf(field, given);
  }
  const args = operation.args ?? [];
  let at = 0;
  for (const [index, key] of args.entries()) {
    const field = fields.find((f) => f.key === key)!;
    if (at >= positionals.length) break;
    if (field.array && index === args.length - 1) {
      raw[key] = positionals.slice(at).map((t) => valueOf({ ...field, array: false }, t));
      at = positionals.length;
    } else raw[key] = valueOf(field, positionals[at++]);
  }
  if (at < positionals.length) throw new UsageError(`unexpected argument${positionals.length - at > 1 ? 's' : ''} ${positionals.slice(at).map((p) => JSON.stringify(p)).join(' ')} (quote a value that has spaces)`);
  const parsed = z.object(operation.input).safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = fields.find((f) => f.key === issue.path[0]);
  const where = field ? (field.positional ? field.key : `--${field.flag}`) : 'input';
  if (field && raw[field.key] === undefined) throw new UsageError(field.positional ? `give the ${field.key}${field.description ? ` (${field.description})` : ''}` : `${where} is required`);
  const shown = field && raw[field.key] !== undefined ? ` ${JSON.stringify(field.kind === 'number' ? values[field.key] ?? positionals[args.indexOf(field.key)] : raw[field.key])}` : '';
  throw new UsageError(`${where}${shown}: ${field?.kind === 'number' ? 'give a number' : issue.message}${field?.description ? ` (${field.description})` : ''}`);
}

export interface ParsedCommandLine {
  input?: unknown;
  json: boolean;
  help: boolean;
}

/** A terminal's `boardbridge <name> …` argv (after the name's words) as the operation's input. */
export function parseCommandLine(operation: AnyOperation, argv: readonly string[]): ParsedCommandLine {
  const options: NonNullable<ParseArgsConfig['options']> = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } };
  for (const field of fieldsOf(operation)) {
    if (field.positional) continue;
    options[field.flag] = { type: field.kind === 'boolean' ? 'boolean' : 'string', ...(field.array ? { multiple: true } : {}), ...(field.short ? { short: field.short } : {}) };
  }
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const flags = parsed.values as Record<string, string | boolean | Array<string | boolean> | undefined>;
  if (flags.help) return { json: false, help: true };
  const values = Object.fromEntries(fieldsOf(operation).map((f) => [f.key, flags[f.flag]]));
  return { input: inputOf(operation, values, parsed.positionals), json: flags.json === true, help: false };
}

/** The error as the terminal or CLI shows it: what was wrong, and for bad input the usage. */
export function errorText(operation: AnyOperation, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof UsageError && !message.includes('\nusage: ')) return `boardbridge ${operation.name}: ${message}\nusage: ${usageOf(operation)}\n`;
  return `${message}\n`;
}

/** Exit code of input an operation cannot take (as a shell's usage error). */
export const USAGE_EXIT = 2;

/** What a refused call answers, on every face. */
export function notAllowed(question: string, reason?: string): string {
  return `Not done: ${question} was not allowed${reason ? ` (${reason})` : ''}.`;
}

/**
 * One call, asked for first when its entry says so (`consentFor`), then run. Every face but MCP
 * calls this; MCP's tool server asks the same question itself (it annotates the tool) and then runs.
 */
export async function invoke(operation: AnyOperation, input: unknown, context: OperationContext, io: CommandIo): Promise<Outcome> {
  const asked = await consentFor(operation, input, context);
  if (asked) {
    const answer = context.consent ? await context.consent(toolName(operation), asked.question, asked.kind) : { granted: false, reason: 'nobody here can say yes' };
    if (!answer.granted) {
      io.write(`${notAllowed(asked.question, answer.reason)}\n`);
      return { exitCode: 1 };
    }
  }
  return operation.run(input as never, context, io);
}

/**
 * `boardbridge <name> …` as a terminal or the CLI runs it: text as it goes, or with `--json` the
 * typed result as one line of JSON at the end; bad input says what and how (exit 2).
 */
export async function runCommandLine(operation: AnyOperation, argv: readonly string[], context: OperationContext, io: CommandIo): Promise<number> {
  let line: ParsedCommandLine;
  try {
    line = parseCommandLine(operation, argv);
  } catch (error) {
    io.write(errorText(operation, error));
    return USAGE_EXIT;
  }
  if (line.help) {
    io.write(`${operation.help}\nusage: ${usageOf(operation)}\n`);
    return 0;
  }
  return runParsed(operation, line.input, line.json, context, io);
}

/** A parsed call, printed as text or (`json`) as its typed result. */
export async function runParsed(operation: AnyOperation, input: unknown, json: boolean, context: OperationContext, io: CommandIo): Promise<number> {
  let text = '';
  const callIo: CommandIo = json ? { ...io, write: (t) => (text += t) } : io;
  try {
    const outcome = await invoke(operation, input, context, callIo);
    if (json) io.write(`${JSON.stringify({ ok: outcome.exitCode === 0, ...(outcome.data as object | undefined), ...(outcome.data === undefined ? { output: text } : {}) })}\n`);
    return outcome.exitCode;
  } catch (error) {
    if (json) io.write(`${JSON.stringify({ ok: false, error: errorText(operation, error).trimEnd() })}\n`);
    else io.write(errorText(operation, error));
    return error instanceof UsageError ? USAGE_EXIT : 1;
  }
}

/** The commands a terminal runs in-process (`boardbridge <word> …`), all through `context`. */
export function terminalCommands(context: OperationContext, only: (operation: AnyOperation) => boolean = () => true): CommandTable {
  const byWord = new Map<string, AnyOperation[]>();
  for (const operation of BOARD_OPERATIONS) {
    if (!offers(operation, 'command') || !only(operation)) continue;
    const word = operation.name.split(' ')[0];
    byWord.set(word, [...(byWord.get(word) ?? []), operation]);
  }
  const table: CommandTable = new Map();
  for (const [word, operations] of byWord) {
    const command: InProcessCommand = async (argv, io) => {
      const single = operations.find((o) => o.name === word);
      if (single) return runCommandLine(single, argv, context, io);
      const chosen = operations.find((o) => o.name === `${word} ${argv[0]}`);
      if (!chosen) {
        const steps = operations.map((o) => o.name.slice(word.length + 1));
        io.write(`boardbridge ${word}: ${argv[0] === undefined ? 'give a step' : `unknown step "${argv[0]}"`}: ${steps.join(', ')}\n${operations.map((o) => `usage: ${usageOf(o)}`).join('\n')}\n`);
        return argv[0] === '--help' || argv[0] === '-h' ? 0 : USAGE_EXIT;
      }
      return runCommandLine(chosen, argv.slice(1), context, io);
    };
    table.set(word, command);
  }
  return table;
}

/** Whether the entry is one of these groups of operations (the tables tests and the CLI take apart). */
const named = (...names: string[]) => (operation: AnyOperation) => names.some((n) => operation.name === n || operation.name.startsWith(`${n} `));

/** The Arduino commands (compile, upload, monitor, ports, simulate, sim) over one context. */
export function boardCommands(parts: OperationContextParts): CommandTable {
  return terminalCommands(operationContext(parts), named('compile', 'upload', 'monitor', 'ports', 'simulate', 'sim'));
}

/** build and program (MPLAB X, MPLAB for VS Code). */
export function mplabxCommands(parts: Omit<OperationContextParts, 'hub' | 'requestUploadConsent'> & Partial<Pick<OperationContextParts, 'hub' | 'requestUploadConsent'>>): CommandTable {
  return terminalCommands(operationContext({ hub: undefined as never, requestUploadConsent: async () => undefined, ...parts }), named('build', 'program'));
}

/** run-script, stop-script, camera-info (MicroPython, OpenMV). */
export function micropythonCommands(parts: Omit<OperationContextParts, 'hub' | 'requestUploadConsent'> & Partial<Pick<OperationContextParts, 'hub' | 'requestUploadConsent'>> = {}): CommandTable {
  return terminalCommands(operationContext({ hub: undefined as never, requestUploadConsent: async () => undefined, ...parts }), named('run-script', 'stop-script', 'camera-info'));
}
