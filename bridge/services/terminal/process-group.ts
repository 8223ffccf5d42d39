// Child processes started in their own process group, so that ending one ends
// everything it started (shells, compilers, agents' own children).
import type { ChildProcess } from 'node:child_process';

export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

/** SIGTERM to the group, SIGKILL after `graceMs` if the leader has not exited. */
export function endGroup(child: ChildProcess, graceMs = 2000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    signalGroup(child, 'SIGKILL'); // the leader is gone; its children may not be
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signalGroup(child, 'SIGKILL');
      resolve();
    }, graceMs);
    timer.unref();
    child.once('exit', () => {
      clearTimeout(timer);
      signalGroup(child, 'SIGKILL');
      resolve();
    });
    signalGroup(child, 'SIGTERM');
  });
}
