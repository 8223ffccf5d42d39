// How `boardbridge acp` tells the editor that a tool call was refused by the person, not
// failed: ACP's tool call status has no "refused" (pending, in_progress, completed, failed),
// so the status stays `failed` and the call carries the refusal as a first content block
// (the text an editor like Zed shows in the call's card, as it shows its own "Rejected" with
// the same ✗) and in `_meta` for a client that reads it. Whether it was refused is decided
// once, from the editor's answer (permission-answer.ts), and kept in the session's tool calls.
import type { ToolCallContent, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { ToolCallState } from '../session/state.js';

export const REFUSED_META_KEY = 'boardbridge/refused';

export const REFUSED_TEXT = 'Refused: you did not allow it, so it did not run.';

const note: ToolCallContent = { type: 'content', content: { type: 'text', text: REFUSED_TEXT } };

/** What the editor is told at the refusal: the call failed, with the refusal before what it showed. */
export function refusalUpdate(call: Pick<ToolCallState, 'toolCallId' | 'content'>): ToolCallUpdate {
  return { toolCallId: call.toolCallId, status: 'failed', content: [note, ...call.content], _meta: { [REFUSED_META_KEY]: true } };
}

/** A later update of a refused call, as the editor gets it: new content (which replaces the old) keeps the refusal first. */
export function refusedCallUpdate<U extends ToolCallUpdate>(update: U): U {
  return {
    ...update,
    ...(Array.isArray(update.content) ? { content: [note, ...update.content] } : {}),
    _meta: { ...(update._meta ?? {}), [REFUSED_META_KEY]: true },
  };
}
