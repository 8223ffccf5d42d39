// `/board` and `/context` in the terminal chat, answered as `boardbridge acp` answers them
// (proxy/proxy-answers.ts): the chat's board selection, which each prompt then carries, and
// the context of its workspace.
import type { BoardSelection } from '../session/board-selection.js';
import type { ContextService, LoadedContext } from '../context/context-service.js';
import { errorMessage } from '../errors.js';
import type { CommandSession } from '../proxy/proxy-answers.js';

export class ChatCommandSession implements CommandSession {
  lastSent?: LoadedContext;
  private contexts?: ContextService;

  constructor(
    readonly cwd: string,
    readonly selection: BoardSelection,
    private readonly sketch?: string,
  ) {}

  async tryLoad(): Promise<{ loaded?: LoadedContext; note?: string; error?: string }> {
    try {
      return await (await this.service()).loadWorkspace(this.cwd, this.selection.current, this.sketch);
    } catch (error) {
      return { error: errorMessage(error) };
    }
  }

  /** The session sent the context in full (a `context_sent` event): /context shows it from now on. */
  async sent(): Promise<void> {
    this.lastSent = (await this.tryLoad()).loaded ?? this.lastSent;
  }

  private async service(): Promise<ContextService> {
    if (!this.contexts) {
      const [{ ContextService }, { allProviders }] = await Promise.all([import('../context/context-service.js'), import('../../context-providers/index.js')]);
      this.contexts = new ContextService(allProviders());
    }
    return this.contexts;
  }
}
