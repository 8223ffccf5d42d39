// Which of the agent's requests the bridge answers itself, and how: fs and
// terminals for an editor that lacks them, and `boardbridge …` board commands in
// terminals (always: they share the bridge's serial hub). Everything else goes to
// the editor, every permission request included: an agent's request is never
// answered here, whatever its title or command says (the board server's device
// changes ask the editor again, with the exact operation).
import type { CreateTerminalRequest, ReadTextFileRequest, WriteTextFileRequest } from '@agentclientprotocol/sdk';
import { methods, RequestError } from '@agentclientprotocol/sdk';
import { boardCommandOf } from '../services/terminal/terminal-service.js';
import type { EditorServices } from '../session/agent-capabilities.js';
import type { AgentForward } from './json-rpc-relay.js';
import type { ProxySession } from './proxy-session.js';

type TerminalRequest = { sessionId: string; terminalId: string };

export class LocalAnswers {
  private readonly localTerminals = new Map<string, ProxySession>();

  constructor(
    private readonly editorServes: () => EditorServices,
    private readonly sessions: ReadonlyMap<string, ProxySession>,
  ) {}

  /** The bridge's answer; or the editor answers (undefined), and the bridge hears it first (AgentForward). */
  answer(method: string, params: unknown): Promise<unknown> | AgentForward | undefined {
    const editor = this.editorServes();
    const p = params as { sessionId?: string; terminalId?: string } | undefined;
    switch (method) {
      case methods.client.fs.readTextFile:
        if (editor.readTextFile) return undefined;
        return this.withSession(p, (s) => s.fs().read(params as ReadTextFileRequest));
      case methods.client.fs.writeTextFile:
        if (editor.writeTextFile) return undefined;
        return this.withSession(p, (s) => s.fs().write(params as WriteTextFileRequest));
      case methods.client.terminal.create: {
        const session = p?.sessionId ? this.sessions.get(p.sessionId) : undefined;
        if (!session) return editor.terminal ? undefined : Promise.reject(unknownSession(p?.sessionId));
        const request = params as CreateTerminalRequest;
        // Board commands run here on the bridge's serial hub, even when the editor has terminals.
        if (editor.terminal && !boardCommandOf(request, session.boardCommands).board) return undefined;
        return Promise.resolve().then(() => {
          const created = session.terminals.create(request);
          this.localTerminals.set(created.terminalId, session);
          return created;
        });
      }
      case methods.client.terminal.output:
      case methods.client.terminal.waitForExit:
      case methods.client.terminal.kill:
      case methods.client.terminal.release: {
        const session = p?.terminalId ? this.localTerminals.get(p.terminalId) : undefined;
        if (!session) return editor.terminal ? undefined : Promise.reject(RequestError.resourceNotFound(p?.terminalId));
        return this.terminalCall(method, session, params as TerminalRequest);
      }
      default:
        return undefined;
    }
  }

  private async terminalCall(method: string, session: ProxySession, params: TerminalRequest): Promise<unknown> {
    switch (method) {
      case methods.client.terminal.output:
        return session.terminals.output(params.terminalId);
      case methods.client.terminal.waitForExit:
        return session.terminals.waitForExit(params.terminalId);
      case methods.client.terminal.kill:
        await session.terminals.kill(params.terminalId);
        return {};
      default:
        this.localTerminals.delete(params.terminalId);
        await session.terminals.release(params.terminalId);
        return {};
    }
  }

  private withSession<T>(params: { sessionId?: string } | undefined, run: (session: ProxySession) => Promise<T>): Promise<T> {
    const session = params?.sessionId ? this.sessions.get(params.sessionId) : undefined;
    return session ? run(session) : Promise.reject(unknownSession(params?.sessionId));
  }
}

function unknownSession(sessionId: string | undefined): RequestError {
  return RequestError.invalidParams({ sessionId }, `boardbridge knows no session ${JSON.stringify(sessionId)}`);
}
