// Ends a child's process group (an agent's, a terminal's) when the bridge dies, however
// it dies (SIGKILL too).
//
// Node cannot set PR_SET_PDEATHSIG on a child without native code, and an agent that
// ignores the EOF on its stdin outlives a killed bridge. So each such child gets a
// watchdog: a /bin/sh (about 1 MB, no Node start-up) in a session of its own, blocked
// reading a pipe whose only writer is the bridge. The kernel closes that pipe when the
// bridge exits for any reason; the read returns, and the watchdog sends SIGTERM to the
// group, then SIGKILL to what is left of it two seconds later, and exits as soon as the
// group is gone (see SCRIPT for why a reused group id is never signalled). The pipe is close-on-exec on the bridge's side,
// so no other child holds it open. The watchdog is started before the child and told
// the group's id right after, so a bridge killed at any moment leaves no child unwatched
// but for the instant between the child's spawn and that write. A normal end disarms it.
import { spawn, type ChildProcess } from 'node:child_process';

// The group is signalled only while its leader is the process it was (same start time in
// /proc), or gone: pids wrap, and a group id of a group that has ended may be reused (a live
// group's id never is, so a group whose leader died but whose members live is still safe).
const SCRIPT = [
  'read pgid || exit 0',
  'case "$pgid" in ""|*[!0-9]*) exit 0;; esac',
  'born() { s=$(cat "/proc/$pgid/stat" 2>/dev/null) || return 0; s=${s##*") "}; set -- $s; echo "${20}"; }',
  'start=$(born)',
  'read _',
  'same() { now=$(born); [ -z "$now" ] || [ "$now" = "$start" ]; }',
  'same && kill -15 -"$pgid" 2>/dev/null',
  // A member of the group that is not a zombie (the orphans' reaper may be slow); read, not cat: no fork per process.
  'alive() { for f in /proc/[0-9]*/stat; do { read -r s < "$f"; } 2>/dev/null || continue; s=${s##*") "}; set -- $s; [ "$3" = "$pgid" ] && [ "$1" != Z ] && return 0; done; return 1; }',
  'i=0; while [ $i -lt 20 ] && alive; do sleep 0.1; i=$((i+1)); done',
  'alive && same && kill -9 -"$pgid" 2>/dev/null',
  'exit 0',
].join('\n');

export interface GroupWatchdog {
  /** Watches process group `pgid` (the child's pid: it was started detached). */
  watch(pgid: number): void;
  /** Stops watching without signalling the group (it has been ended already). */
  disarm(): void;
}

/** A watchdog waiting for its group; undefined where there are no process groups (Windows). */
export function startWatchdog(): GroupWatchdog | undefined {
  if (process.platform === 'win32') return undefined;
  let watchdog: ChildProcess;
  try {
    watchdog = spawn('/bin/sh', ['-c', SCRIPT, 'boardbridge-watchdog'], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  } catch {
    return undefined;
  }
  watchdog.on('error', () => undefined);
  watchdog.stdin?.on('error', () => undefined);
  // Neither the watchdog nor its pipe may keep the bridge's event loop alive.
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return {
    watch: (pgid) => void watchdog.stdin?.write(`${pgid}\n`),
    disarm: () => {
      if (watchdog.exitCode === null && watchdog.signalCode === null) watchdog.kill('SIGKILL');
    },
  };
}
