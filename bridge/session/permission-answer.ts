// What the person answered to one permission request, read from the structured answer and
// the request's own options (an option's kind, never any text): the one place "allowed" and
// "refused" are decided, for chat, run and the panel (the broker's answer) and for
// `boardbridge acp` (the editor's answer it relays).
import type { PermissionOption } from '@agentclientprotocol/sdk';

/** `none`: withdrawn (cancelled), or an option id the request did not offer. */
export type PermissionAnswer = 'allowed' | 'refused' | 'none';

/** The answer a permission response carries (as it came over the wire: any shape). */
export function permissionAnswer(options: readonly PermissionOption[] | undefined, response: unknown): PermissionAnswer {
  const outcome = (response as { outcome?: { outcome?: unknown; optionId?: unknown } } | null | undefined)?.outcome;
  if (outcome?.outcome !== 'selected' || typeof outcome.optionId !== 'string') return 'none';
  return optionAnswer(options, outcome.optionId);
}

/** The answer that choosing option `optionId` of the request's `options` gives. */
export function optionAnswer(options: readonly PermissionOption[] | undefined, optionId: string): PermissionAnswer {
  const kind = (Array.isArray(options) ? options : []).find((o) => o?.optionId === optionId)?.kind;
  if (kind === 'allow_once' || kind === 'allow_always') return 'allowed';
  if (kind === 'reject_once' || kind === 'reject_always') return 'refused';
  return 'none';
}
