import { readdirSync, readFileSync } from 'node:fs';
import { until } from './until.js';

// Whether a process still runs. Signal 0 checks without sending anything, but it also
// finds a zombie: a process that has ended and waits to be collected. The orphans of a
// killed bridge are collected by pid 1, which in a container may do so late (about 2 s
// under this machine's process_api) or never, so on Linux a zombie counts as ended.

/** The fields of /proc/<pid>/stat after the command name: [state, ppid, pgrp, ...]. */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Whether process `pid` runs, or for a negative pid whether any process of group -pid runs. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  if (pid > 0) {
    const fields = statFields(pid);
    return fields !== undefined && fields[0] !== 'Z';
  }
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .some((name) => {
      const fields = statFields(name);
      return fields !== undefined && Number(fields[2]) === -pid && fields[0] !== 'Z';
    });
}

/** Waits up to `timeoutMs` for a whole process group to be gone (its leader may be ending it a moment longer). */
export async function groupGone(pgid: number, timeoutMs = 30_000): Promise<boolean> {
  return until(`process group ${pgid} to end`, () => !alive(-pgid), { timeoutMs, stepMs: 100 }).then(
    () => true,
    () => false,
  );
}
