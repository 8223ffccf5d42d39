// Checks what the agent sends with the SDK's own zod schemas. `session/update` params
// are checked against the variant their `sessionUpdate` tag names, picking the variant by
// its `sessionUpdate` tag. The SDK checks them against the whole union, which tries each
// variant in turn and builds the error messages of every one that fails (most of the
// bridge's time per update). Each variant requires its own tag, so the union accepts
// exactly what the tagged variant accepts and returns the same value.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SessionNotification, StopReason } from '@agentclientprotocol/sdk';
import { cliCommand } from '../cli-entry.js';
import { BridgeError } from '../errors.js';

interface ZodLike {
  parse(value: unknown): unknown;
  safeParse(value: unknown): { success: true; data: unknown } | { success: false };
  _zod: { def: Record<string, unknown> };
}

interface ObjectLike extends ZodLike {
  extend(shape: Record<string, ZodLike>): ZodLike;
}

interface SdkSchemas {
  zSessionNotification: ObjectLike;
  zSessionUpdate: ZodLike & { options: ZodLike[] };
  zPromptResponse: ZodLike;
  zStopReason: ZodLike & { options: ZodLike[] };
}

// The schemas are not among the SDK's exports; they sit beside its entry point.
const entry = createRequire(import.meta.url).resolve('@agentclientprotocol/sdk');
const schemas = (await import(pathToFileURL(path.join(path.dirname(entry), '..', 'schema', 'zod.gen.js')).href)) as SdkSchemas;

const byTag = new Map<string, ZodLike>();
for (const variant of schemas.zSessionUpdate.options) {
  const tag = variantTag(variant);
  if (tag) byTag.set(tag, schemas.zSessionNotification.extend({ update: variant }));
}

// Each variant is `Payload.and(z.object({ sessionUpdate: z.literal(tag) }))`.
function variantTag(variant: ZodLike): string | undefined {
  const right = variant._zod.def.right as { shape?: Record<string, ZodLike> } | undefined;
  const values = right?.shape?.sessionUpdate?._zod.def.values;
  return Array.isArray(values) && typeof values[0] === 'string' ? values[0] : undefined;
}

const CHUNK_TAGS = new Set(['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk']);

const onlyKeys = (value: object, allowed: (key: string) => boolean): boolean => {
  for (const key in value) if (!allowed(key)) return false;
  return true;
};

/**
 * A text chunk with nothing else in it — most of what a streaming agent sends — checked by hand:
 * `{sessionId, update: {sessionUpdate, content: {type: "text", text}}}` with string values and no
 * other key is exactly what the SDK's schema accepts and returns unchanged, so the schema is not
 * run for it. Anything else, optional fields included, goes through the schema.
 */
function plainTextChunk(params: unknown): params is SessionNotification {
  if (params === null || typeof params !== 'object') return false;
  const { sessionId, update } = params as { sessionId?: unknown; update?: unknown };
  if (typeof sessionId !== 'string' || update === null || typeof update !== 'object') return false;
  if (!onlyKeys(params, (key) => key === 'sessionId' || key === 'update')) return false;
  const { sessionUpdate, content } = update as { sessionUpdate?: unknown; content?: unknown };
  if (typeof sessionUpdate !== 'string' || !CHUNK_TAGS.has(sessionUpdate) || content === null || typeof content !== 'object') return false;
  if (!onlyKeys(update, (key) => key === 'sessionUpdate' || key === 'content')) return false;
  const { type, text } = content as { type?: unknown; text?: unknown };
  return type === 'text' && typeof text === 'string' && onlyKeys(content, (key) => key === 'type' || key === 'text');
}

/** The params of a `session/update`, checked as the SDK checks them; throws the SDK's ZodError when invalid. */
export function parseSessionNotification(params: unknown): SessionNotification {
  if (plainTextChunk(params)) return params;
  const tag = (params as { update?: { sessionUpdate?: unknown } } | null)?.update?.sessionUpdate;
  const schema = (typeof tag === 'string' && byTag.get(tag)) || schemas.zSessionNotification;
  return schema.parse(params) as SessionNotification;
}

/** The tags the dispatch found, one per variant of the SDK's union (checked by the tests). */
export function knownUpdateTags(): string[] {
  return [...byTag.keys()];
}

const STOP_REASONS = schemas.zStopReason.options.map((option) => String((option._zod.def.values as unknown[])[0]));

/** The stop reason of a `session/prompt` reply; a reply that has none is a protocol error naming the agent. */
export function promptStopReason(reply: unknown, agent: string): StopReason {
  const parsed = schemas.zPromptResponse.safeParse(reply);
  if (parsed.success) return (parsed.data as { stopReason: StopReason }).stopReason;
  const got =
    reply === null || typeof reply !== 'object'
      ? `the result ${JSON.stringify(reply) ?? String(reply)}`
      : 'stopReason' in reply
        ? `the stop reason ${JSON.stringify((reply as { stopReason: unknown }).stopReason)?.slice(0, 100)}`
        : 'a result without a stopReason';
  throw new BridgeError(
    'protocol',
    `${agent} answered session/prompt with ${got}; ACP expects {stopReason} with one of ${STOP_REASONS.join(', ')}`,
    `the turn is over and the session goes on; if it repeats, report it to the agent's authors or run: ${cliCommand('doctor')}`,
  );
}
