// Waiting in a test for something to happen: by a deadline on the clock, never by a count of
// tries, since a loaded machine runs each try later and a count then waits less just when more
// time is needed. The deadline only bounds the wait (a failure says what did not happen); no
// test asserts how long something took.

export interface UntilOptions {
  /** How long to wait at most; default 30 s (under the 60 s a test may take by default). */
  timeoutMs?: number;
  /** The pause between two checks; default 20 ms. */
  stepMs?: number;
  /** More to say when it did not happen (the state seen last). */
  detail?: () => string;
}

/** Checks `check` until it returns something truthy, and returns that; throws naming `what` after the deadline. */
export async function until<T>(what: string, check: () => T | undefined | null | false | Promise<T | undefined | null | false>, options: UntilOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) {
      const detail = options.detail?.();
      throw new Error(`gave up waiting for ${what} after ${timeoutMs / 1000} s${detail ? `: ${detail}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.stepMs ?? 20));
  }
}
