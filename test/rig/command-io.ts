// A CommandIo like the bridge's terminal service gives: collected output and a kill switch.
import type { CommandIo } from '../../boards/command.js';

export interface RecordedIo extends CommandIo {
  output(): string;
  kill(): void;
}

export function recordedIo(cwd = process.cwd()): RecordedIo {
  const controller = new AbortController();
  let text = '';
  return {
    write: (chunk) => {
      text += chunk;
    },
    signal: controller.signal,
    cwd,
    env: {},
    output: () => text,
    kill: () => controller.abort(new Error('terminal/kill')),
  };
}
