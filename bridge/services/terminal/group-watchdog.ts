// Ends a child's process group (an agent's, a terminal's) when the bridge dies, however
// it dies (SIGKILL too).
//
// Node cannot set PR_SET_PDEATHSIG on a child without native code, and an agent that
// ignores the EOF on its stdin outlives a killed bridge. So each such child gets a
// watchdog: a /bin/sh (about 1 MB, no Node start-up) in a session of its own, blocked
// reading a pipe whose only writer is the bridge. The kernel closes that pipe when the
// bridge exits for any reason; the read returns, and the watchdog sends SIGTERM to the
// group, then SIGKILL to what is left of it two seconds later, and exits as soon as the
// group is gone (see SCRIPT for why a reused group id is never signalled). The pipe is
// close-on-exec on the bridge's side, so no other child holds it open.
//
// The watchdog is started before the child and told the group's id right after the spawn.
// Between the two the child already runs, and a loaded machine may not run the bridge
// again for many milliseconds: a bridge killed then (seen: a terminal's `sleep` left
// running by a SIGKILL that followed the terminal's first output) never told its watchdog
// the group. So the child also carries the watchdog's mark in its environment
// (WATCHDOG_MARK_ENV), and a watchdog whose pipe ends before any group id ends the group
// led by the process that carries its mark. A normal end disarms it.
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';

/** The variable naming a child's watchdog; only the first milliseconds of a child rely on it. */
export const WATCHDOG_MARK_ENV = 'BOARDBRIDGE_WATCHDOG';

// $1 is the mark. A group is "pgid:start time of its leader" (empty: the leader had gone).
// A group is signalled only while its leader is the process it was (same start time in
// /proc), or gone: pids wrap, and a group id of a group that has ended may be reused (a live
// group's id never is, so a group whose leader died but whose members live is still safe).
const SCRIPT = [
  'mark=$1',
  // The fields of /proc/$1/stat after the command name, in $s (read, not cat: no fork).
  'fields() { { read -r s < "/proc/$1/stat"; } 2>/dev/null || return 1; s=${s##*") "}; }',
  'born() { fields "$1" || return 0; set -- $s; echo "${20}"; }',
  // The live group leaders that carry the mark (the child just spawned; a second look in
  // case it was between fork and exec, when its environment is still the bridge's).
  `marked() { for f in $(grep -lsxzF "${WATCHDOG_MARK_ENV}=$mark" /proc/[0-9]*/environ); do p=\${f#/proc/}; p=\${p%/environ}; fields "$p" && set -- $s && [ "$1" != Z ] && [ "$3" = "$p" ] && echo "$p:\${20}"; done; }`,
  'if read pgid; then',
  '  case "$pgid" in ""|*[!0-9]*) exit 0;; esac',
  '  groups="$pgid:$(born "$pgid")"',
  '  read _',
  'else',
  '  groups=$(marked); [ -n "$groups" ] || { sleep 0.5; groups=$(marked); }',
  'fi',
  'same() { now=$(born "${1%%:*}"); [ -z "$now" ] || [ "$now" = "${1#*:}" ]; }',
  'for g in $groups; do same "$g" && kill -15 -"${g%%:*}" 2>/dev/null; done',
  // Whether a member of a group in $want is not a zombie (the orphans' reaper may be slow).
  'alive() { for f in /proc/[0-9]*/stat; do { read -r s < "$f"; } 2>/dev/null || continue; s=${s##*") "}; set -- $s; [ "$1" != Z ] && case " $want " in *" $3 "*) return 0;; esac; done; return 1; }',
  'want=; for g in $groups; do want="$want ${g%%:*}"; done',
  'i=0; while [ $i -lt 20 ] && alive; do sleep 0.1; i=$((i+1)); done',
  'for g in $groups; do want=${g%%:*}; alive && same "$g" && kill -9 -"$want" 2>/dev/null; done',
  'exit 0',
].join('\n');

export interface GroupWatchdog {
  /** To add to the child's environment: how the watchdog finds a child it was never told of. */
  readonly env: Record<string, string>;
  /** Watches process group `pgid` (the child's pid: it was started detached). */
  watch(pgid: number): void;
  /** Stops watching without signalling the group (it has been ended already). */
  disarm(): void;
}

/** A watchdog waiting for its group; undefined where there are no process groups (Windows). */
export function startWatchdog(): GroupWatchdog | undefined {
  if (process.platform === 'win32') return undefined;
  const mark = randomBytes(12).toString('hex');
  let watchdog: ChildProcess;
  try {
    watchdog = spawn('/bin/sh', ['-c', SCRIPT, 'boardbridge-watchdog', mark], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  } catch {
    return undefined;
  }
  watchdog.on('error', () => undefined);
  watchdog.stdin?.on('error', () => undefined);
  // Neither the watchdog nor its pipe may keep the bridge's event loop alive.
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return {
    env: { [WATCHDOG_MARK_ENV]: mark },
    watch: (pgid) => void watchdog.stdin?.write(`${pgid}\n`),
    disarm: () => {
      if (watchdog.exitCode === null && watchdog.signalCode === null) watchdog.kill('SIGKILL');
    },
  };
}
