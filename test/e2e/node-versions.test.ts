// The maintained LTS lines the README names (Node 22 and 24), each from the npm package `node`
// (test/setup/node22, test/setup/node24; installed by test/ci.sh), run the bundled CLI's main
// paths: the context, a compile with Debian's arduino-builder, and a turn with a stand-in agent.
// The stand-in agent stands for a real one (the real agents' own Node needs are tested with
// them); the CLI, the Node under test and the compiler are real.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { node22Binary } from '../support/agents.js';
import { repoRoot, tempSketch } from './run-cli.js';

const bundle = path.join(repoRoot, 'dist', 'cli', 'boardbridge.js');
const node24 = path.join(repoRoot, 'test/setup/node24/node_modules/node/bin/node');
const lines: Array<[string, () => string | undefined]> = [
  ['22', node22Binary],
  ['24', () => (existsSync(node24) || process.env.CI ? node24 : undefined)],
];

describe.each(lines)('the bundled CLI on Node %s (npm package node)', (major, binary) => {
  const node = binary();
  it.skipIf(!node)('prints the context, compiles the sketch, and runs a turn with a stand-in agent', () => {
    const version = spawnSync(node!, ['--version'], { encoding: 'utf8' }).stdout.trim();
    expect(version).toMatch(new RegExp(`^v${major}\\.`));
    const { root, sketch } = tempSketch();
    const env = { PATH: process.env.PATH ?? '', HOME: root, BOARDBRIDGE_NO_CACHE: '1', BOARDBRIDGE_STATE_DIR: path.join(root, 'state') };
    const run = (args: string[]) => spawnSync(node!, [bundle, ...args], { encoding: 'utf8', env, cwd: root, timeout: 120_000 });

    const context = run(['context', sketch, '--fqbn', 'arduino:avr:uno', '--json']);
    expect(context.status, context.stderr).toBe(0);
    expect(JSON.parse(context.stdout)).toMatchObject({ kind: 'arduino', board: { id: 'arduino:avr:uno', mcu: 'atmega328p' } });

    const compiled = run(['compile', sketch, '--fqbn', 'arduino:avr:uno']);
    expect(compiled.status, compiled.stdout + compiled.stderr).toBe(0);
    expect(compiled.stdout).toMatch(/^Flash: \d+ of 32256 bytes/m);

    const standin = `${node} ${path.join(repoRoot, 'test', 'support', 'standin-agent.mjs')}`;
    const turn = run(['run', 'make some noise', '--json', '--workspace', sketch, '--agent-command', standin]);
    expect(turn.status, turn.stderr).toBe(0);
    const events = turn.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; text?: string; stopReason?: string });
    expect(events.filter((e) => e.type === 'message_chunk').map((e) => e.text).join('')).toContain('still fine after noise');
    expect(events.filter((e) => e.type === 'stop')).toEqual([{ type: 'stop', stopReason: 'end_turn' }]);
  }, 300_000);
});
