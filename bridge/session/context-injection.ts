// Decides what hardware context goes with a prompt: the full context on the
// first prompt and whenever it changed, otherwise a one-line reminder. Without a
// context the agent is told why, once (until the reason changes).
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { LoadedContext } from '../context/context-service.js';

export interface ContextBlocks {
  blocks: ContentBlock[];
  /** A context went (`note`: which project it is when the workspace is not simply it). */
  event?: { kind: string; board: string; form: 'resource' | 'text'; chars: number; full: boolean; note?: string };
  /** No context went, for this reason (set only when the agent is told it, i.e. once). */
  missing?: string;
}

export class ContextInjector {
  private lastSentHash?: string;
  private lastMissing?: string;

  constructor(private readonly embeddedContext: boolean) {}

  /** `note`: how the project was found, or (without `loaded`) why there is no context. */
  blocksFor(loaded: LoadedContext | undefined, note?: string): ContextBlocks {
    if (!loaded) {
      const reason = note ?? 'boardbridge found no project to read the board from';
      this.lastSentHash = undefined;
      if (reason === this.lastMissing) return { blocks: [] };
      this.lastMissing = reason;
      return { blocks: [{ type: 'text', text: `[boardbridge] No hardware context: ${reason}` }], missing: reason };
    }
    this.lastMissing = undefined;
    const { context } = loaded;
    const markdown = note ? `> ${note}\n\n${loaded.markdown}` : loaded.markdown;
    const hash = createHash('sha256').update(markdown).digest('hex');
    const board = `${context.board.name} (${context.board.id})`;
    if (hash === this.lastSentHash) {
      const text = `[boardbridge] The hardware context sent earlier still holds: ${board}.`;
      return { blocks: [{ type: 'text', text }], event: { kind: context.kind, board, form: 'text', chars: text.length, full: false } };
    }
    this.lastSentHash = hash;
    const uri = pathToFileURL(loaded.project.main ?? loaded.project.root).href + '#boardbridge-hardware-context';
    const block: ContentBlock = this.embeddedContext
      ? { type: 'resource', resource: { uri, mimeType: 'text/markdown', text: markdown } }
      : { type: 'text', text: `<hardware-context source="boardbridge">\n${markdown}\n</hardware-context>` };
    return {
      blocks: [block],
      event: { kind: context.kind, board, form: this.embeddedContext ? 'resource' : 'text', chars: markdown.length, full: true, ...(note ? { note } : {}) },
    };
  }

  /** After a restart the agent has forgotten everything: send the full context again. */
  reset(): void {
    this.lastSentHash = undefined;
    this.lastMissing = undefined;
  }
}
