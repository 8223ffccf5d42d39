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

/** Throws invalid params (-32602) naming the first field at fault and the method. */
export function checkParams<T>(name: SchemaName, method: string, params: unknown): T {
  const result = validator(name).safeParse(params);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue.path.length ? issue.path.join('.') : '(params)';
    throw RequestError.invalidParams({ method, field: where }, `${method}: ${where}: ${issue.message}`);
  }
  return params as T;
}
