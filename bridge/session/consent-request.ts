// The bridge's own question before a device change or the project's build scripts run
// ("upload x.hex to Arduino Uno on /dev/ttyACM0?"), asked as a permission request of its
// own. Both faces ask it the same way; only the voice that puts it to the person differs:
// the permission broker of chat/run/panel, or the editor's session/request_permission.
import type { RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { ConsentKind } from '../../boards/operations.js';
import type { DeviceConsent } from '../mcp/hardware-tool.js';
import { permissionAnswer } from './permission-answer.js';
import { DEVICE_META_KEY, PROJECT_CODE_META_KEY } from '../services/permission/classify.js';

export interface ConsentVoice {
  /** Puts the bridge's request to the person (or their standing policy) and gives the answer. */
  ask(request: RequestPermissionRequest): Promise<RequestPermissionResponse>;
  /** Why a question that was not allowed was refused, in this face's words. */
  refusal(kind: ConsentKind): string;
}

export const CONSENT_OPTIONS = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
] as const satisfies RequestPermissionRequest['options'];

/**
 * The consent of one session: each question is a tool call `boardbridge-<tool>-<n>` of that
 * session, marked as the bridge's own (so no policy for the agent's tool calls answers it),
 * granted only by the person choosing `allow` for exactly that request.
 */
export function sessionConsent(sessionId: () => string | undefined, voice: ConsentVoice): DeviceConsent {
  let asked = 0;
  return async (toolName, question, kind) => {
    const id = sessionId();
    if (!id) return { granted: false, reason: 'the session is not open yet' };
    const response = await voice.ask({
      sessionId: id,
      toolCall: { toolCallId: `boardbridge-${toolName}-${++asked}`, title: question, kind: 'execute', _meta: { [kind === 'device' ? DEVICE_META_KEY : PROJECT_CODE_META_KEY]: true } },
      options: [...CONSENT_OPTIONS],
    });
    const granted = permissionAnswer(CONSENT_OPTIONS, response) === 'allowed';
    return granted ? { granted } : { granted, reason: voice.refusal(kind) };
  };
}
