// Answers elicitation/create: the person through the face when there is one, else the
// policy's decline; never a request left hanging (a cancel answers every pending one).
import type { CreateElicitationRequest, CreateElicitationResponse } from '@agentclientprotocol/sdk';
import { formFields, type FormField } from './form-fields.js';

export interface PendingElicitation {
  id: number;
  message: string;
  mode: 'form' | 'url' | string;
  fields?: FormField[];
  url?: string;
  elicitationId?: string;
  toolCallId?: string;
}

export type ElicitationAction = 'accept' | 'decline' | 'cancel';

/** The face's way to ask the person; resolves with the answer (cancel when the signal aborts). */
export type AskElicitation = (pending: PendingElicitation, signal: AbortSignal) => Promise<CreateElicitationResponse>;

export interface ElicitationBrokerOptions {
  ask?: AskElicitation;
  onPending?: (pending: PendingElicitation) => void;
  onDecision?: (pending: PendingElicitation, action: ElicitationAction, by: 'person' | 'policy' | 'cancel') => void;
}

export class ElicitationBroker {
  private next = 0;
  private readonly pending = new Map<number, AbortController>();

  constructor(private readonly options: ElicitationBrokerOptions) {}

  async decide(request: CreateElicitationRequest, agentSignal?: AbortSignal): Promise<CreateElicitationResponse> {
    const r = request as CreateElicitationRequest & Record<string, unknown>;
    const pending: PendingElicitation = {
      id: ++this.next,
      message: request.message,
      mode: request.mode,
      fields: request.mode === 'form' && r.requestedSchema ? formFields((request as Extract<CreateElicitationRequest, { mode: 'form' }>).requestedSchema) : undefined,
      url: typeof r.url === 'string' ? r.url : undefined,
      elicitationId: typeof r.elicitationId === 'string' ? r.elicitationId : undefined,
      toolCallId: typeof r.toolCallId === 'string' ? r.toolCallId : undefined,
    };
    this.options.onPending?.(pending);
    const known = request.mode === 'form' || request.mode === 'url';
    if (!this.options.ask || !known) {
      // Nobody to answer (run, scripts), or a mode this client does not know.
      this.options.onDecision?.(pending, 'decline', 'policy');
      return { action: 'decline' };
    }
    const controller = new AbortController();
    this.pending.set(pending.id, controller);
    const onAgentCancel = () => controller.abort();
    agentSignal?.addEventListener('abort', onAgentCancel, { once: true });
    try {
      const answer = await Promise.race([
        this.options.ask(pending, controller.signal),
        new Promise<CreateElicitationResponse>((resolve) => controller.signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true })),
      ]);
      const action = (['accept', 'decline', 'cancel'] as const).find((a) => a === answer.action) ?? 'cancel';
      this.options.onDecision?.(pending, action, controller.signal.aborted ? 'cancel' : 'person');
      return controller.signal.aborted ? { action: 'cancel' } : answer;
    } finally {
      agentSignal?.removeEventListener('abort', onAgentCancel);
      this.pending.delete(pending.id);
    }
  }

  /** Answers every pending elicitation with cancel (session/cancel, close). */
  cancelAll(): void {
    for (const controller of this.pending.values()) controller.abort();
  }
}
