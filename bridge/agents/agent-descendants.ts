// The processes an agent started that left its process group (`setsid`, a daemon's
// double fork), found in /proc so that ending the agent ends them too. Without cgroups
// (none to create here, and none on a person's desktop without systemd's help) two
// marks are read: the ancestry (parent pids up to the agent, while the parents live)
// and a variable every child inherits, AGENT_MARK_ENV with a value of this agent's own.
// What drops both (clears its environment and is orphaned before the agent ends) is
// not found: only a cgroup or PR_SET_CHILD_SUBREAPER, which Node cannot set, would be.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

export const AGENT_MARK_ENV = 'BOARDBRIDGE_AGENT_MARK';

/** A process as found: its pid and start time, so that a pid reused since is never signalled. */
export interface FoundProcess {
  pid: number;
  started: string;
}

export function newAgentMark(): string {
  return randomBytes(12).toString('hex');
}

/** The live processes below `rootPid`, or carrying `mark` in their environment (Linux; elsewhere none). */
export function agentDescendants(rootPid: number, mark: string): FoundProcess[] {
  if (process.platform !== 'linux') return [];
  const table = processTable();
  const children = new Map<number, number[]>();
  for (const [pid, entry] of table) children.set(entry.ppid, [...(children.get(entry.ppid) ?? []), pid]);
  const found = new Set<number>();
  const below = [...(children.get(rootPid) ?? [])];
  while (below.length) {
    const pid = below.pop()!;
    if (found.has(pid)) continue;
    found.add(pid);
    below.push(...(children.get(pid) ?? []));
  }
  const needle = `\0${AGENT_MARK_ENV}=${mark}\0`;
  for (const pid of table.keys()) {
    if (pid === process.pid || found.has(pid)) continue;
    if (environOf(pid)?.includes(needle)) found.add(pid);
  }
  found.delete(rootPid);
  return [...found].flatMap((pid) => {
    const entry = table.get(pid);
    return entry ? [{ pid, started: entry.started }] : [];
  });
}

/** Sends `signal` to each process that is still the one found (same start time). */
export function signalFound(found: FoundProcess[], signal: NodeJS.Signals): void {
  for (const { pid, started } of found) {
    if (statOf(pid)?.started !== started) continue;
    try {
      process.kill(pid, signal);
    } catch {
      // ended meanwhile
    }
  }
}

/**
 * CPU time (clock ticks) used so far by the agent (the first pid) and the processes found
 * below it, with their reaped children; undefined off Linux or once the agent is gone. A
 * start-up that is working shows it here.
 */
export function cpuTicks(pids: readonly number[]): number | undefined {
  if (process.platform !== 'linux' || pids.length === 0) return undefined;
  const own = statOf(pids[0]!);
  if (!own) return undefined;
  return pids.slice(1).reduce((sum, pid) => sum + (statOf(pid)?.ticks ?? 0), own.ticks);
}

function processTable(): Map<number, { ppid: number; started: string }> {
  const table = new Map<number, { ppid: number; started: string }>();
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return table;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = statOf(Number(name));
    if (stat && stat.state !== 'Z') table.set(Number(name), { ppid: stat.ppid, started: stat.started });
  }
  return table;
}

// /proc/<pid>/stat after the command name (which may hold spaces and parentheses): state, ppid, ...,
// utime, stime, cutime, cstime (the 12th to 15th), starttime (the 20th); proc(5).
function statOf(pid: number): { state: string; ppid: number; started: string; ticks: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0);
    return { state: fields[0], ppid: Number(fields[1]), started: fields[19], ticks };
  } catch {
    return undefined;
  }
}

function environOf(pid: number): string | undefined {
  try {
    return `\0${readFileSync(`/proc/${pid}/environ`, 'latin1')}`;
  } catch {
    return undefined;
  }
}
