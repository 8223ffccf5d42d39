// Work the bridge does ahead of need (a preload) in parts, each on its own turn of the event loop,
// so that what arrives meanwhile (an agent's answer, an editor's request) waits for one part at
// most, not for them all: a module's evaluation, once begun, cannot be interrupted.

/**
 * Resolves once the event loop has polled for I/O and run what it found: a pipe's or a socket's
 * data is read, and its handlers run, in the poll phase. One setImmediate is not enough: called
 * from an I/O handler (in the poll phase), its callback runs in the check phase right after, before
 * the loop polls again; a second one, set from the check phase, waits for the next turn's poll.
 */
const afterPoll = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

/**
 * Runs `parts` one after the other, each after the I/O that was ready before it began has been
 * handled. Stops at the first part that fails, with its error.
 */
export async function inTurns(parts: ReadonlyArray<() => Promise<unknown>>): Promise<void> {
  for (const part of parts) {
    await afterPoll();
    await part();
  }
}
