// Errors a person can act on: each says what failed and what to do next.

export class BridgeError extends Error {
  constructor(
    readonly code: 'agent_not_found' | 'agent_start' | 'agent_exited' | 'auth_required' | 'workspace_not_found' | 'protocol' | 'busy',
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
}

/** JSON-RPC errors arrive as plain objects or RequestError instances; read both. */
export function rpcErrorCode(error: unknown): number | undefined {
  if (error && typeof error === 'object' && 'code' in error && typeof (error as { code: unknown }).code === 'number') {
    return (error as { code: number }).code;
  }
  return undefined;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
}
