// The maintained LTS lines the README names (Node 22 and 24), each from the npm package `node`
// (test/setup/node22, test/setup/node24; installed by test/ci.sh), run the bundled CLI's main
// paths: the context (the same JSON as on the Node running the tests, on the Uno, UNO R4, Pico and
// Nucleo, built and stored), every command's --help, a compile with Debian's arduino-builder, and a
// turn with a stand-in agent.
// The stand-in agent stands for a real one (the real agents' own Node needs are tested with
// them); the CLI, the Node under test and the compiler are real.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from '../support/fixtures.js';
import { node22Binary } from '../support/agents.js';
import { repoRoot, tempSketch } from './run-cli.js';

const bundle = path.join(repoRoot, 'dist', 'cli', 'boardbridge.cjs');
const node24 = path.join(repoRoot, 'test/setup/node24/node_modules/node/bin/node');
const boards = ['arduino:avr:uno', 'arduino:renesas_uno:minima', 'rp2040:rp2040:rpipico', 'STMicroelectronics:stm32:Nucleo_64:pnum=NUCLEO_F401RE'];
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

    // The 32-bit boards' contexts as the Node running the tests prints them: built, then again with
    // the disk cache (stored, and the pin map read back for a second sketch).
    const data = { ARDUINO_DIRECTORIES_DATA: fixture('arduino', 'data_dir_32bit') };
    const cache = { BOARDBRIDGE_NO_CACHE: '', BOARDBRIDGE_CACHE_DIR: path.join(root, 'cache') };
    const sketches = [sketch, path.join(repoRoot, 'test', 'fixtures', 'arduino', 'sketches', 'PinChecks')];
    for (const fqbn of boards) {
      for (const folder of sketches) {
        const args = [bundle, 'context', folder, '--fqbn', fqbn, '--json'];
        const expected = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...env, ...data }, cwd: root });
        expect(expected.status, expected.stderr).toBe(0);
        for (const extra of [{}, cache, cache]) {
          const got = spawnSync(node!, args, { encoding: 'utf8', env: { ...env, ...data, ...extra }, cwd: root, timeout: 120_000 });
          expect(got.stderr, `${fqbn} ${folder}`).toBe('');
          expect(JSON.parse(got.stdout)).toEqual(JSON.parse(expected.stdout));
        }
      }
    }

    const top = run(['--help']);
    expect(top.status, top.stderr).toBe(0);
    const names = top.stdout.split('Commands:')[1].split('\n').map((line) => /^ {2}([a-z][\w-]*)/.exec(line)?.[1]).filter((name): name is string => Boolean(name) && name !== 'help');
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) expect(run([name, '--help']).stdout, name).toMatch(new RegExp(`^Usage: boardbridge ${name} `));

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
