// The ACP transport over an agent's stdio: one JSON-RPC message per line. Real
// agents sometimes print other lines on stdout; those are skipped and logged
// instead of being answered with parse errors (which the SDK's ndJsonStream does).
import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';

export const MAX_LINE_BYTES = 32 * 1024 * 1024;

export interface MessageStreamOptions {
  onSkippedLine?: (line: string, reason: string) => void;
}

export function messageStream(stdout: Readable, stdin: Writable, options: MessageStreamOptions = {}): Stream {
  const readable = new ReadableStream<AnyMessage>({
    start(controller) {
      const decoder = new StringDecoder('utf8');
      let pending = '';
      const emitLine = (line: string) => {
        const trimmed = line.trim();
        if (!trimmed) return;
        if (trimmed[0] !== '{') {
          options.onSkippedLine?.(trimmed, 'not JSON');
          return;
        }
        let message: unknown;
        try {
          message = JSON.parse(trimmed);
        } catch {
          options.onSkippedLine?.(trimmed, 'not valid JSON');
          return;
        }
        if (!message || typeof message !== 'object' || Array.isArray(message)) return options.onSkippedLine?.(trimmed, 'not a JSON-RPC object');
        try {
          controller.enqueue(message as AnyMessage);
        } catch {
          // The connection was closed on our side (the reader is gone): a late answer is dropped.
        }
      };
      stdout.on('data', (chunk: Buffer) => {
        pending += decoder.write(chunk);
        let newline = pending.indexOf('\n');
        while (newline !== -1) {
          emitLine(pending.slice(0, newline));
          pending = pending.slice(newline + 1);
          newline = pending.indexOf('\n');
        }
        if (pending.length > MAX_LINE_BYTES) {
          options.onSkippedLine?.(pending.slice(0, 200), `a line over ${MAX_LINE_BYTES} bytes`);
          pending = '';
        }
      });
      stdout.on('end', () => {
        emitLine(pending + decoder.end());
        try {
          controller.close();
        } catch {
          // already closed
        }
      });
      stdout.on('error', (error) => controller.error(error));
    },
  });
  const writable = new WritableStream<AnyMessage>({
    write(message) {
      return new Promise<void>((resolve, reject) => {
        if (stdin.destroyed || !stdin.writable) {
          reject(new Error('the agent is no longer reading its input'));
          return;
        }
        stdin.write(JSON.stringify(message) + '\n', (error) => (error ? reject(error) : resolve()));
      });
    },
    close() {
      stdin.end();
    },
  });
  return { readable, writable };
}
