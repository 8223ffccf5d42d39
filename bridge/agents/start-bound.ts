// How long a starting agent is waited for. A fixed time would stop a real agent that is
// slow because it is working (gemini takes 18 s to answer initialize on a loaded machine,
// copilot unpacks 235 MB on its first start); an agent that is stuck shows no sign of life.
// So the wait ends once the agent has been quiet for QUIET_MS: nothing on stderr, under 5% of
// a core used and no TCP connection being made or open (an agent waiting on the network, a
// login or a registry over a slow link, is quiet but alive; Linux's /proc, elsewhere only
// stderr counts), or after LONGEST_MS in all.
import type { AgentProcess } from './agent-process.js';

export const QUIET_MS = 10_000;
export const LONGEST_MS = 120_000;
const SAMPLE_MS = 1000;
// Linux reports CPU time in USER_HZ ticks, 100 a second on every architecture it runs on.
const BUSY_TICKS = 5;

/** A signal that aborts when `agent` has been quiet for QUIET_MS; `stop()` ends the watch. */
export function quietStartSignal(agent: AgentProcess): { signal: AbortSignal; reason(): string; stop(): void } {
  const controller = new AbortController();
  const started = Date.now();
  let lastLife = started;
  let heard = agent.stderr.received;
  let ticks = agent.lifeSigns().ticks;
  let why = '';
  const timer = setInterval(() => {
    const now = Date.now();
    const signs = agent.lifeSigns();
    const busy = ticks !== undefined && signs.ticks !== undefined && signs.ticks - ticks >= BUSY_TICKS;
    if (agent.stderr.received !== heard || busy || signs.connections > 0) lastLife = now;
    heard = agent.stderr.received;
    ticks = signs.ticks;
    if (now - lastLife >= QUIET_MS) why = `was quiet for ${QUIET_MS / 1000} s (no output, no CPU use)`;
    else if (now - started >= LONGEST_MS) why = `was still starting after ${LONGEST_MS / 1000} s`;
    if (why) {
      clearInterval(timer);
      controller.abort();
    }
  }, SAMPLE_MS);
  timer.unref();
  return { signal: controller.signal, reason: () => why, stop: () => clearInterval(timer) };
}
