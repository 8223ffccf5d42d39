// The bridge against a stand-in agent that sends hostile output (test/support/hostile-agent.mjs):
// arbitrarily deep JSON, lines of tens of megabytes, a flood of reads while it never reads
// its answers, prompt replies without a stop reason. The bridge answers or ends the turn
// with a clear error, never crashes, never hangs, and its memory stays bounded.
import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentLaunch } from '../../bridge/agents/resolve.js';
import { MAX_MESSAGE_ENV } from '../../bridge/agents/message-stream.js';
import { ASK_EVERYTHING } from '../../bridge/services/permission/broker.js';
import { BridgeSession } from '../../bridge/session/bridge-session.js';
import type { BridgeEvent } from '../../bridge/session/events.js';
import { ofType, repoRoot, tempSketch } from './run-cli.js';

const hostileLaunch: AgentLaunch = {
  id: 'hostile',
  title: 'hostile stand-in agent',
  command: process.execPath,
  args: [path.join(repoRoot, 'test', 'support', 'hostile-agent.mjs')],
  env: {},
  via: 'command',
};

let session: BridgeSession | undefined;
afterEach(async () => {
  delete process.env[MAX_MESSAGE_ENV];
  await session?.close();
  session = undefined;
});

async function start() {
  const { root, sketch } = tempSketch();
  const events: BridgeEvent[] = [];
  session = await BridgeSession.start({
    launch: hostileLaunch,
    env: { PATH: process.env.PATH ?? '', HOME: root, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') },
    workspace: sketch,
    policy: ASK_EVERYTHING,
    onEvent: (e) => events.push(e),
  });
  const said = () => ofType(events, 'message_chunk').map((e) => e.text).join('\n');
  return { sketch, events, said, session };
}

describe('a hostile stand-in agent', () => {
  it('cannot crash the bridge with a bare object nested 10,000 deep, and a request nested as deep is answered with an error', async () => {
    const { said, session } = await start();
    const turn = await session.prompt('deep');
    expect(turn.error).toBeUndefined();
    expect(turn.stopReason).toBe('end_turn');
    expect(said()).toContain('deep request answered: error -32600 Invalid request: fs/read_text_file arrived as a message nested deeper than 256 levels');
    expect(session.alive).toBe(true);
    expect((await session.prompt('hello')).stopReason).toBe('end_turn');
  });

  it('gets its 40 MB fs/write_text_file line written and answered', async () => {
    const { sketch, said, session } = await start();
    const target = path.join(sketch, 'big.txt');
    const turn = await session.prompt(`big-write ${target} 40`);
    expect(turn.stopReason, turn.error?.message).toBe('end_turn');
    expect(said()).toContain('write answered: ok');
    expect(statSync(target).size).toBe(40_000_000);
  });

  it('is told the file is too large when its write line is over the limit', async () => {
    process.env[MAX_MESSAGE_ENV] = '8';
    const { sketch, said, session } = await start();
    const turn = await session.prompt(`big-write ${path.join(sketch, 'big.txt')} 12`);
    expect(turn.stopReason, turn.error?.message).toBe('end_turn');
    expect(said()).toContain('write answered: error -32602 the file is too large to write in one request: a message of 11.4 MiB, over the 8.0 MiB limit');
  });

  it('ends the turn with a clear error when an over-limit request hides its id', async () => {
    process.env[MAX_MESSAGE_ENV] = '8';
    const { events, session } = await start();
    const turn = await session.prompt('big-hidden-id 12');
    expect(turn.error?.code).toBe('protocol');
    expect(turn.error?.message).toContain('hostile stand-in agent sent a message of 11.6 MiB, over the 8.0 MiB limit for one message');
    expect(turn.error?.message).toContain('whose id and method could not be read');
    expect(turn.error?.hint).toContain(MAX_MESSAGE_ENV);
    expect(ofType(events, 'error')).toHaveLength(1);
    expect((await session.prompt('hello')).stopReason).toBe('end_turn');
  });

  it('cannot grow the bridge without bound by flooding reads while never reading its stdin', async () => {
    const { sketch, said, session } = await start();
    writeFileSync(path.join(sketch, 'big.txt'), 'r'.repeat(4_000_000));
    const marker = path.join(sketch, 'now-read');
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const turn = session.prompt(`flood ${path.join(sketch, 'big.txt')} 100 ${marker}`);
    // 100 answers of 4 MB would hold well over a gigabyte if all were read and queued.
    for (let i = 0; i < 40; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    writeFileSync(marker, '');
    const result = await turn;
    expect(result.stopReason, result.error?.message).toBe('end_turn');
    expect(said()).toContain('flood answered: 100 of 100');
    expect(peak - before).toBeLessThan(400 * 2 ** 20);
  });

  it('does not deadlock with an agent whose blocking write of a large message comes while an answer to it waits', async () => {
    const { sketch, said, session } = await start();
    const file = path.join(sketch, 'big.txt');
    writeFileSync(file, 'r'.repeat(8_000_000));
    const turn = await session.prompt(`read-then-big ${file} 40`);
    expect(turn.stopReason, turn.error?.message).toBe('end_turn');
    expect(said().slice(-100)).toContain('read then big: read 8000000');
  });

  it('answering session/prompt with null is a protocol error naming the agent', async () => {
    const { session } = await start();
    const turn = await session.prompt('null-result');
    expect(turn.error?.code).toBe('protocol');
    expect(turn.error?.message).toBe(
      'hostile stand-in agent answered session/prompt with the result null; ACP expects {stopReason} with one of end_turn, max_tokens, max_turn_requests, refusal, cancelled',
    );
    expect((await session.prompt('hello')).stopReason).toBe('end_turn');
  });

  it('an unknown stopReason is a protocol error naming the agent and the reason', async () => {
    const { session } = await start();
    const turn = await session.prompt('stop:weird');
    expect(turn.error?.code).toBe('protocol');
    expect(turn.error?.message).toContain('hostile stand-in agent answered session/prompt with the stop reason "weird"');
  });
});
