// Ends a child's process group (an agent's, a terminal's) when the bridge dies, however
// it dies (SIGKILL too).
//
// Node cannot set PR_SET_PDEATHSIG on a child without native code, and an agent that
// ignores the EOF on its stdin outlives a killed bridge. So each agent gets a watchdog:
// a /bin/sh (about 1 MB, no Node start-up) in a session of its own, blocked reading a
// pipe whose only writer is the bridge. The kernel closes that pipe when the bridge
// exits for any reason; the read returns, and the watchdog sends SIGTERM to the
// agent's group, then SIGKILL two seconds later. The pipe is close-on-exec on the
// bridge's side, so no other child holds it open. A normal close disarms the watchdog.
import { spawn, type ChildProcess } from 'node:child_process';

const SCRIPT = 'read _; kill -15 -"$1" 2>/dev/null; sleep 2; kill -9 -"$1" 2>/dev/null';

export interface GroupWatchdog {
  /** Stops watching without signalling the group (it has been ended already). */
  disarm(): void;
}

/** Watches process group `pgid`; undefined where there are no process groups (Windows). */
export function watchGroup(pgid: number): GroupWatchdog | undefined {
  if (process.platform === 'win32') return undefined;
  let watchdog: ChildProcess;
  try {
    watchdog = spawn('/bin/sh', ['-c', SCRIPT, 'boardbridge-watchdog', String(pgid)], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  } catch {
    return undefined;
  }
  watchdog.on('error', () => undefined);
  watchdog.stdin?.on('error', () => undefined);
  // Neither the watchdog nor its pipe may keep the bridge's event loop alive.
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return {
    disarm: () => {
      if (watchdog.exitCode === null && watchdog.signalCode === null) watchdog.kill('SIGKILL');
    },
  };
}
