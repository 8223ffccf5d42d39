// What the fuzz suite feeds mutated real files to, through the built code in dist/ (so a
// runner can be a plain node process the suite can kill when an input hangs). Each target
// names its fixtures and returns a size for its output, to catch exponential growth.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = (file) => import(path.join(repo, 'dist', file));
// The fixtures folder as test/support/fixtures.ts resolves it: fuzz.test.ts passes it down.
if (!process.env.BOARDBRIDGE_FIXTURES) throw new Error('test/fuzz/targets.mjs: BOARDBRIDGE_FIXTURES is not set — run the fuzz suite through test/fuzz/fuzz.test.ts, which sets it');
const shared = path.resolve(process.env.BOARDBRIDGE_FIXTURES);
const read = (file) => ({ file, text: readFileSync(file, 'utf8') });
const MiB = 2 ** 20;

/** An MPLAB provider and a temporary folder for copies of the projects, removed when the runner exits. */
async function mplabScratch(prefix) {
  const { createMplabxProvider } = await dist('context-providers/mplabx/index.js');
  const scratch = mkdtempSync(path.join(tmpdir(), prefix));
  process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
  return { provider: createMplabxProvider({ packRoots: [] }), scratch };
}

/** The provider reads the project folder holding the mutated file; the size is its context's JSON. */
async function contextSize(provider, dir, input) {
  const detected = await provider.detect(dir);
  if (!detected) return { size: 0, limit: 1 };
  const context = await provider.load(detected, {});
  return { size: JSON.stringify(context).length, limit: 32 * input.length + MiB };
}

const keysOf = (text) => [...text.matchAll(/^([\w.-]+)=/gm)].map((m) => m[1]);

const arduinoPlatforms = [
  path.join(shared, 'arduino/data_dir/packages/arduino/hardware/avr/1.8.3'),
  path.join(shared, 'arduino/user_hardware/watterott/avr'),
  path.join(shared, 'arduino/user_hardware/my_avr_platform/avr'),
  '/usr/share/arduino/hardware/arduino/avr',
].filter((dir) => existsSync(path.join(dir, 'boards.txt')));

// Keys the board context and the build expand.
const EXPANDED = ['name', 'build.mcu', 'build.f_cpu', 'build.board', 'build.core', 'build.variant', 'upload.tool', 'upload.speed', 'upload.maximum_size', 'recipe.cpp.o.pattern', 'recipe.c.combine.pattern', 'recipe.preproc.macros', 'tools.avrdude.upload.pattern'];

export const targets = {
  // boards.txt and platform.txt of real platforms, one of the pair mutated: parsed, merged per board, expanded, cycles searched.
  properties: {
    ext: 'txt',
    async load() {
      const { parseProperties, referenceCycles } = await dist('platform/arduino/properties.js');
      const pairs = arduinoPlatforms.map((dir) => ({ boards: read(path.join(dir, 'boards.txt')), platform: read(path.join(dir, 'platform.txt')) }));
      const fixtures = pairs.flatMap((pair) => [pair.boards, pair.platform]);
      const keys = fixtures.flatMap((f) => keysOf(f.text).slice(0, 40));
      // Keys that other values refer to, such as compiler.cpp.flags in the recipes.
      const referenced = [...new Set(fixtures.flatMap((f) => [...f.text.matchAll(/\{([\w.-]+)\}/g)].map((m) => m[1])))];
      return {
        fixtures,
        tokens: keys.map((key) => `{${key}}`),
        extra: [
          // key={key} {key} ...: a value that refers to itself, once or many times, in place of a line or added
          (text, rng) => {
            const lines = text.split('\n');
            const at = rng.int(lines.length);
            const key = rng.next() < 0.5 ? rng.pick(referenced) : lines[at].split('=')[0].trim() || rng.pick(keys);
            lines.splice(at, rng.int(2), `${key}=${Array(rng.count(8)).fill(`{${key}}`).join(' ')}`);
            return lines.join('\n');
          },
        ],
        run(input, fixture) {
          const pair = pairs.find((p) => p.boards === fixture || p.platform === fixture);
          const boardsText = fixture === pair.boards ? input : pair.boards.text;
          const platformText = fixture === pair.platform ? input : pair.platform.text;
          const platform = parseProperties(platformText, 'platform.txt', 'linux').properties;
          const boards = parseProperties(boardsText, 'boards.txt', 'linux').properties;
          let size = 0;
          const ids = [...boards.firstLevelOf().entries()].filter(([id]) => id !== 'menu').slice(0, 4);
          for (const [, board] of ids) {
            const merged = platform.clone().merge(board);
            for (const key of EXPANDED) size += merged.expand(merged.get(key) ?? '').length;
            size += referenceCycles(merged.keys(), (k) => merged.get(k)).length;
          }
          return { size, limit: 64 * MiB };
        },
      };
    },
  },

  // OpenMV scripts from the test fixtures, analysed against each known board in turn.
  openmv: {
    ext: 'py',
    async load() {
      const { analyzeScript, knownBoards } = await dist('context-providers/openmv/index.js');
      const dir = path.join(repo, 'test/fixtures/openmv/scripts');
      const fixtures = [...readdirSync(dir).map((f) => read(path.join(dir, f))), read(path.join(repo, 'test/fixtures/openmv/camera-drive/main.py'))];
      const boards = knownBoards();
      return {
        fixtures,
        tokens: ['sensor.', 'csi.CSI(', 'sensor.set_framesize(', 'sensor.set_pixformat(', 'sensor.VGA', 'sensor.RGB565', 'import sensor\n', 'from csi import *\n', 'def f(', 'lambda: ', '    ', 'if x:\n', '**', 'yield', '@', 'async ', '"""', "f'{", '}'],
        // The board from the seed, not from a count of inputs run: the remake command gives the same board.
        run(input, fixture, seed) {
          const analysis = analyzeScript(input, { board: boards[seed % boards.length], file: 'main.py' });
          return { size: JSON.stringify(analysis).length, limit: 32 * input.length + MiB };
        },
      };
    },
  },

  // MPLAB X configurations.xml of the real XC8 and XC16 projects, read by the provider from a copy of each project.
  'mplabx-configurations': {
    ext: 'xml',
    async load() {
      const { provider, scratch } = await mplabScratch('bb-fuzz-mplabx-');
      const projects = ['pic18f47q10-curiosity-hpc-demo-code.X', 'dspic33ck-curiosity-canfd.X'].map((name) => {
        cpSync(path.join(shared, 'mplabx', name), path.join(scratch, name), { recursive: true });
        return { dir: path.join(scratch, name), fixture: read(path.join(shared, 'mplabx', name, 'nbproject', 'configurations.xml')) };
      });
      return {
        fixtures: projects.map((p) => p.fixture),
        tokens: ['<', '>', '</', '/>', '<conf name="x" type="2">', '</conf>', '<property key="optimization-level" value="-O2"/>', '&amp;', '&#x0;', '&#99999999;', '<![CDATA[', ']]>', '<!--', '-->', '<?xml version="1.0"?>', '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>', '&b;', '<targetDevice>', '</targetDevice>', 'PIC18F47Q10', '<languageToolchain>XC8</languageToolchain>'],
        async run(input, fixture) {
          const project = projects.find((p) => p.fixture === fixture);
          writeFileSync(path.join(project.dir, 'nbproject', 'configurations.xml'), input);
          return contextSize(provider, project.dir, input);
        },
      };
    },
  },

  // .vscode/*.mplab.json of the real MPLAB-for-VS-Code project and of the test fixture.
  'mplab-json': {
    ext: 'json',
    async load() {
      const { provider, scratch } = await mplabScratch('bb-fuzz-mplabjson-');
      const sources = [
        [path.join(shared, 'mplabx', 'vscode-pwr-probe-test'), 'pwr-probe-test.mplab.json'],
        [path.join(repo, 'test/fixtures/mplabx/vscode-blink'), 'blink.mplab.json'],
      ];
      const projects = sources.map(([dir, file]) => {
        const copy = path.join(scratch, path.basename(dir));
        cpSync(dir, copy, { recursive: true });
        return { file: path.join(copy, '.vscode', file), dir: copy, fixture: read(path.join(dir, '.vscode', file)) };
      });
      return {
        fixtures: projects.map((p) => p.fixture),
        tokens: ['{', '}', '[', ']', '"', ':', ',', '"configurations"', '"propertyGroups"', '"device"', '"PIC24EP256MC206"', '"toolchain"', '"fileSets"', '"**/*.c"', '!(', '*(', '@(', '**/', '*a', '|', '1e400', '-0', '\\u0000', '\\ud800'],
        async run(input, fixture) {
          const project = projects.find((p) => p.fixture === fixture);
          writeFileSync(project.file, input);
          return contextSize(provider, project.dir, input);
        },
      };
    },
  },

  // What real agents sent (test/fixtures/recorded/), mutated, through the bridge's stream reader,
  // the SDK connection with the bridge's handlers and the reducer; a valid update at the end must arrive.
  acp: {
    ext: 'jsonl',
    async load() {
      const { messageStream } = await dist('bridge/agents/message-stream.js');
      const { connectClient } = await dist('bridge/session/agent-connection.js');
      const { reduceUpdate } = await dist('bridge/session/reducer.js');
      const { initialState } = await dist('bridge/session/state.js');
      const { RequestError } = await import('@agentclientprotocol/sdk');
      const dir = path.join(repo, 'test/fixtures/recorded');
      const recordings = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => read(path.join(dir, f)));
      // Windows of 20 lines, so a mutation is not lost in a long recording.
      const fixtures = recordings.flatMap(({ file, text }) => {
        const lines = text.split('\n').filter(Boolean);
        const windows = [];
        for (let i = 0; i < lines.length; i += 20) windows.push({ file: `${file}:${i + 1}`, text: lines.slice(i, i + 20).join('\n') + '\n' });
        return windows;
      });
      const refuse = () => {
        throw RequestError.methodNotFound('terminal/* (the fuzz suite runs no terminals)');
      };
      return {
        fixtures,
        tokens: ['{"jsonrpc":"2.0","id":1,"result":null}', '"id":{"x":1}', '"jsonrpc":"1.0"', '"id":1e400', '"sessionUpdate":"tool_call"', '"sessionUpdate":"nope"', '"toolCallId":"t"', '"id":', '"method":"fs/write_text_file"', '"method":"session/request_permission"', '"content":', '"_meta":', 'null', '[]', '{}'],
        async run(input) {
          const stdout = new PassThrough();
          const stdin = new PassThrough();
          stdin.resume();
          let state = initialState('fuzz');
          let arrived;
          const sentinel = new Promise((resolve) => (arrived = resolve));
          const connection = connectClient(
            messageStream(stdout, stdin),
            {
              fs: () => ({ read: async () => ({ content: 'text' }), write: async () => ({}) }),
              terminals: refuse,
              onPermission: async () => ({ outcome: { outcome: 'cancelled' } }),
              onUpdate: (notification) => {
                state = reduceUpdate(state, notification.update).state;
                if (notification.update.sessionUpdate === 'agent_message_chunk' && notification.update.content.text === 'fuzz-sentinel') arrived();
              },
            },
            () => undefined,
          );
          stdout.write(input.endsWith('\n') ? input : `${input}\n`);
          stdout.write('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"fuzz","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"fuzz-sentinel"}}}}\n');
          await sentinel;
          const size = JSON.stringify(state).length;
          connection.close();
          return { size, limit: 16 * input.length + MiB };
        },
      };
    },
  },
};
