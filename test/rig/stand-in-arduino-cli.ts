// A stand-in arduino-cli (it cannot be installed here): an executable script that answers the
// commands the bridge uses with the JSON shapes docs/formats.md documents, in the 0.35 or the
// ≥1.0 form, and logs each call's arguments so tests can check what was asked.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface StandInCli {
  /** Folder holding `arduino-cli`, to put on PATH or inside a stand-in IDE. */
  dir: string;
  executable: string;
  /** Argument lists of every call so far. */
  calls(): string[][];
}

const GCC_ERROR = `/home/u/Arduino/Blink/Blink.ino: In function 'void loop()':
/home/u/Arduino/Blink/Blink.ino:6:1: error: 'asd' was not declared in this scope
 asd
 ^~~`;

function answers(version: '0.35.3' | '1.0.4'): Record<string, unknown> {
  const modern = version.startsWith('1.');
  const wrap = (field: string, items: unknown[]): unknown => (modern ? { [field]: items } : items);
  const port = {
    address: '/dev/ttyACM0',
    label: '/dev/ttyACM0',
    protocol: 'serial',
    protocol_label: 'Serial Port (USB)',
    properties: { pid: '0x0043', vid: '0x2341', serialNumber: '75830333238351806212' },
    hardware_id: '75830333238351806212',
  };
  return {
    'board list': wrap('detected_ports', [
      { matching_boards: [{ name: 'Arduino Uno', fqbn: 'arduino:avr:uno' }], port },
    ]),
    'lib list': wrap('installed_libraries', [
      {
        library: {
          name: 'Servo',
          version: '1.2.1',
          install_dir: '/home/u/Arduino/libraries/Servo',
          location: 'user',
        },
        release: { version: '1.2.1' },
      },
    ]),
    'core list': modern
      ? {
          platforms: [
            {
              id: 'arduino:avr',
              installed_version: '1.8.6',
              latest_version: '1.8.6',
              releases: { '1.8.6': { name: 'Arduino AVR Boards', version: '1.8.6' } },
            },
          ],
        }
      : [{ id: 'arduino:avr', installed: '1.8.6', latest: '1.8.6', name: 'Arduino AVR Boards' }],
    'board details': {
      fqbn: 'arduino:avr:uno',
      name: 'Arduino Uno',
      build_properties: [
        'upload.tool=avrdude',
        'upload.protocol=arduino',
        'upload.speed=115200',
        'upload.maximum_size=32256',
        'upload.maximum_data_size=2048',
      ],
    },
    'compile ok': {
      compiler_out: 'Sketch uses 924 bytes (2%) of program storage space. Maximum is 32256 bytes.',
      compiler_err: '',
      success: true,
      builder_result: {
        build_path: '',
        used_libraries: [
          { name: 'Wire', version: '1.0', install_dir: '/home/u/.arduino15/packages/arduino/hardware/avr/1.8.6/libraries/Wire' },
        ],
        executable_sections_size: [
          { name: 'text', size: 924, max_size: 32256 },
          { name: 'data', size: 9, max_size: 2048 },
        ],
        ...(modern ? { diagnostics: [] } : {}),
      },
    },
    'compile error': {
      compiler_out: '',
      compiler_err: GCC_ERROR,
      success: false,
      builder_result: {
        ...(modern
          ? {
              diagnostics: [
                {
                  severity: 'ERROR',
                  message: "'asd' was not declared in this scope\n asd\n ^~~",
                  file: '/home/u/Arduino/Blink/Blink.ino',
                  line: 6,
                  column: 1,
                  context: [{ message: "In function 'void loop()':", file: '/home/u/Arduino/Blink/Blink.ino' }],
                },
              ],
            }
          : {}),
      },
    },
  };
}

/** Writes the stand-in; `compile` fails with a gcc error when the sketch folder's name contains "Broken". */
export function standInArduinoCli(version: '0.35.3' | '1.0.4', dir = mkdtempSync(join(tmpdir(), 'bb-cli-'))): StandInCli {
  mkdirSync(dir, { recursive: true });
  const log = join(dir, 'calls.jsonl');
  writeFileSync(log, '');
  const jsonFlag = version.startsWith('1.') ? "args.includes('--json')" : "args.join(' ').includes('--format json')";
  const script = `#!/usr/bin/env node
const { appendFileSync } = require('node:fs');
const given = process.argv.slice(2);
appendFileSync(${JSON.stringify(log)}, JSON.stringify(given) + '\\n');
// --config-file is a global flag: anywhere, with its value.
const at = given.indexOf('--config-file');
const args = at < 0 ? given : given.filter((_, i) => i !== at && i !== at + 1);
const answers = ${JSON.stringify(answers(version))};
const command = args.filter((a) => !a.startsWith('-')).slice(0, 2).join(' ');
if (args[0] === 'version') { console.log('arduino-cli  Version: ${version} Commit: 0123abc Date: 2024-06-01T00:00:00Z'); process.exit(0); }
if (args[0] === 'upload') {
  console.log('avrdude: 924 bytes of flash written');
  console.log('avrdude: 924 bytes of flash verified');
  process.exit(0);
}
if (!(${jsonFlag})) { console.error('Error: unknown flag'); process.exit(1); }
if (args[0] === 'compile') {
  const broken = args[args.length - 1].includes('Broken');
  const answer = answers[broken ? 'compile error' : 'compile ok'];
  const buildPath = args[args.indexOf('--build-path') + 1];
  if (answer.builder_result && 'build_path' in answer.builder_result) answer.builder_result.build_path = buildPath;
  console.log(JSON.stringify(answer, null, 2));
  process.exit(broken ? 1 : 0);
}
if (command in answers) { console.log(JSON.stringify(answers[command], null, 2)); process.exit(0); }
console.error('Error: unknown command ' + command);
process.exit(1);
`;
  const executable = join(dir, 'arduino-cli');
  writeFileSync(executable, script);
  chmodSync(executable, 0o755);
  return {
    dir,
    executable,
    calls: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as string[]),
  };
}
