// Child processes started in their own process group, so that ending one ends
// everything it started (shells, compilers, agents' own children).
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

// Signal 0 also finds zombies: members that have ended and wait for the orphans' reaper,
// which in a container may collect them seconds later. On Linux, those count as gone.
function groupAlive(child: ChildProcess): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    return readdirSync('/proc').some((name) => {
      if (!/^\d+$/.test(name)) return false;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(pgrp) === child.pid && state !== 'Z';
      } catch {
        return false;
      }
    });
  } catch {
    return true;
  }
}

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

/**
 * SIGTERM to the group, SIGKILL after `graceMs` if the leader has not exited. With
 * `drain`, the rest of the group also gets the remaining grace to exit on its own once the
 * leader is gone (an agent's own child may still be writing its session to disk).
 */
export function endGroup(child: ChildProcess, graceMs = 2000, drain = false): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    signalGroup(child, 'SIGKILL'); // the leader is gone; its children may not be
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    let poll: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      clearInterval(poll);
      signalGroup(child, 'SIGKILL');
      resolve();
    }, graceMs);
    // Draining keeps the bridge alive until the group is gone (at most graceMs): no orphans.
    if (!drain) timer.unref();
    child.once('exit', () => {
      if (!drain) {
        clearTimeout(timer);
        signalGroup(child, 'SIGKILL');
        return resolve();
      }
      poll = setInterval(() => {
        if (groupAlive(child)) return;
        clearInterval(poll);
        clearTimeout(timer);
        resolve();
      }, 50);
    });
    signalGroup(child, 'SIGTERM');
  });
}
