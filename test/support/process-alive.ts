// Whether a process still exists (signal 0 checks without sending anything).
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits up to ~10 s for a whole process group to be gone (its leader may be ending it a moment longer). */
export async function groupGone(pgid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (!alive(-pgid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
