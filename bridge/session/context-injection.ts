// Decides what hardware context goes with a prompt: the full context on the
// first prompt and whenever it changed, otherwise a one-line reminder.
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { LoadedContext } from '../context/context-service.js';

export interface ContextBlocks {
  blocks: ContentBlock[];
  event?: { kind: string; board: string; form: 'resource' | 'text'; chars: number; full: boolean };
}

export class ContextInjector {
  private lastSentHash?: string;

  constructor(private readonly embeddedContext: boolean) {}

  blocksFor(loaded: LoadedContext | undefined): ContextBlocks {
    if (!loaded) return { blocks: [] };
    const { context, markdown } = loaded;
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
      event: { kind: context.kind, board, form: this.embeddedContext ? 'resource' : 'text', chars: markdown.length, full: true },
    };
  }

  /** After a restart the agent has forgotten everything: send the full context again. */
  reset(): void {
    this.lastSentHash = undefined;
  }
}
