// Checks the params of the requests the proxy changes against the JSON schema the
// ACP SDK ships (schema/v1/schema.json), so a malformed request is refused with
// the field at fault instead of being half-understood. The params forwarded stay
// the editor's own: validation never strips fields the schema does not know.
import { createRequire } from 'node:module';
import { z } from 'zod';
import { RequestError } from '@agentclientprotocol/sdk';

type SchemaName = 'InitializeRequest' | 'NewSessionRequest' | 'LoadSessionRequest' | 'ResumeSessionRequest' | 'PromptRequest';

const require = createRequire(import.meta.url);
let defs: Record<string, unknown> | undefined;
const validators = new Map<SchemaName, z.ZodType>();

function validator(name: SchemaName): z.ZodType {
  let found = validators.get(name);
  if (!found) {
    defs ??= (require('@agentclientprotocol/sdk/schema/v1/schema.json') as { $defs: Record<string, unknown> }).$defs;
    found = z.fromJSONSchema({ $ref: `#/$defs/${name}`, $defs: defs } as Parameters<typeof z.fromJSONSchema>[0]);
    validators.set(name, found);
  }
  return found;
}

/**
 * Throws invalid params (-32602) naming the first field at fault and the method, when that
 * field is one the proxy relies on. A fault inside what the proxy passes on untouched (a
 * prompt block, an editor's MCP server, a capability) is the agent's to judge: the request
 * goes on, and `warn` says what the schema did not accept.
 */
export function checkParams<T>(name: SchemaName, method: string, params: unknown, warn: (message: string) => void): T {
  const result = validator(name).safeParse(params);
  if (result.success) return params as T;
  const issue = result.error.issues[0];
  const where = issue.path.length ? issue.path.join('.') : '(params)';
  const message = `${method}: ${where}: ${issue.message}`;
  if (passedOnUntouched(issue.path)) {
    warn(`${message} (passed on to the agent as it is)`);
    return params as T;
  }
  throw RequestError.invalidParams({ method, field: where }, message);
}

function passedOnUntouched(path: PropertyKey[]): boolean {
  const [first, second] = path;
  if (first === '_meta' || first === 'clientCapabilities' || first === 'clientInfo') return true;
  return (first === 'prompt' || first === 'mcpServers' || first === 'additionalDirectories') && typeof second === 'number';
}
