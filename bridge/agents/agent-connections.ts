// The TCP connections a starting agent has being made or open: an agent that waits on the
// network (an auth check, a registry, over a slow link) uses no CPU and says nothing, yet is
// not stuck. Read from /proc (proc(5)): the socket inodes in each process's fd table, and
// their state in the agent's own network namespace (/proc/<pid>/net/tcp and tcp6). Only
// SYN_SENT (a connection being made) and ESTABLISHED count: a listening socket waits on
// nobody in particular. Linux only; elsewhere none are found.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

// proc(5) /proc/net/tcp "st": the kernel's TCP states, in hex.
const ESTABLISHED = '01';
const SYN_SENT = '02';

/** How many TCP connections of `pids` are being made or open; `rootPid` names the network namespace. */
export function openConnections(pids: readonly number[], rootPid: number): number {
  if (process.platform !== 'linux') return 0;
  const inodes = new Set<string>();
  for (const pid of pids) for (const inode of socketInodes(pid)) inodes.add(inode);
  if (inodes.size === 0) return 0;
  let open = 0;
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = readFileSync(`/proc/${rootPid}/net/${table}`, 'latin1');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local rem st tx:rx tr:when retrnsmt uid timeout inode ...
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      if ((fields[3] === ESTABLISHED || fields[3] === SYN_SENT) && inodes.has(fields[9]!)) open++;
    }
  }
  return open;
}

function socketInodes(pid: number): string[] {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return [];
  }
  const inodes: string[] = [];
  for (const fd of fds) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.push(match[1]!);
    } catch {
      // closed meanwhile
    }
  }
  return inodes;
}
