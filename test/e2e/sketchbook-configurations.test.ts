// One answer to "where are this user's libraries": `boardbridge context`, `compile` and `simulate`
// (the built CLI, Debian's arduino-builder, avr-gcc, the simulator) on the same servo sketch, with
// the sketchbook set each way Arduino's tools let a person set it. The sketchbook is the shared
// fixture with the real Servo 1.3.0 (SOURCES.md in the fixtures folder); Debian ships no Servo.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HardwareContext } from '../../context-providers/types.js';
import { FIXTURES } from '../context-providers/arduino/paths.js';
import { servoAndPwm } from '../rig/simulate-sketches.js';
import { sketchFolder } from '../rig/sketches.js';
import { cliMain, repoRoot } from './run-cli.js';

const SKETCHBOOK = path.join(FIXTURES, 'sketchbook');
const SERVO = path.join(SKETCHBOOK, 'libraries', 'Servo');
// One core cache for the whole file: the core is compiled once, not once per configuration.
const CACHE = mkdtempSync(path.join(os.tmpdir(), 'bb-cache-'));
// Each test compiles the AVR core once or more with the real avr-gcc: minutes on a loaded machine.
const COMPILES = 240_000;
const PATH = (process.env.PATH ?? '').split(':').filter((dir) => !dir.includes('node_modules')).join(':');

interface Configuration {
  name: string;
  /** Writes what this way needs into a fresh home and returns the variables to set. */
  set(home: string): Record<string, string>;
}

const yaml = `directories:\n  user: ${SKETCHBOOK}\n`;
const CONFIGURATIONS: Configuration[] = [
  { name: 'ARDUINO_DIRECTORIES_USER', set: () => ({ ARDUINO_DIRECTORIES_USER: SKETCHBOOK }) },
  {
    name: 'an arduino-cli.yaml named by ARDUINO_CONFIG_FILE',
    set: (home) => {
      writeFileSync(path.join(home, 'my-arduino.yaml'), yaml);
      return { ARDUINO_CONFIG_FILE: path.join(home, 'my-arduino.yaml') };
    },
  },
  {
    name: 'arduino-cli.yaml in the default data directory (~/.arduino15)',
    set: (home) => {
      mkdirSync(path.join(home, '.arduino15'));
      writeFileSync(path.join(home, '.arduino15', 'arduino-cli.yaml'), yaml);
      return {};
    },
  },
  {
    name: 'Arduino IDE 2.x’s ~/.arduinoIDE/arduino-cli.yaml',
    set: (home) => {
      mkdirSync(path.join(home, '.arduinoIDE'));
      writeFileSync(path.join(home, '.arduinoIDE', 'arduino-cli.yaml'), `board_manager:\n  additional_urls: []\n${yaml}`);
      return {};
    },
  },
];

/** The built CLI with exactly `env`; its whole output (run-cli's reader wants one JSON event a line). */
function runCli(args: string[], { env }: { env: Record<string, string> }): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cliMain, ...args], { cwd: repoRoot, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

function environment(configuration?: Configuration): Record<string, string> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'bb-home-'));
  return { PATH, HOME: home, XDG_CACHE_HOME: CACHE, BOARDBRIDGE_NO_CACHE: '1', ...(configuration?.set(home) ?? {}) };
}

describe('the sketchbook is where every command looks for libraries', () => {
  for (const configuration of CONFIGURATIONS) {
    it(`with ${configuration.name}: the context names the sketchbook's Servo, compile links it, simulate runs it`, async () => {
      const env = environment(configuration);
      const sketch = sketchFolder('ServoPwm', servoAndPwm(9));

      const context = await runCli(['context', sketch, '--fqbn', 'arduino:avr:uno', '--json'], { env });
      expect(context.code, context.stderr).toBe(0);
      const loaded = JSON.parse(context.stdout) as HardwareContext;
      expect(loaded.libraries.find((library) => library.include === 'Servo.h')).toMatchObject({ name: 'Servo', version: '1.3.0', path: SERVO, location: 'user' });
      expect(loaded.findings.filter((finding) => finding.severity === 'error')).toEqual([]);
      // Servo takes Timer 1 (its avr/ServoTimers.h), the timer of D9's PWM: a warning at the analogWrite line.
      expect(loaded.findings).toContainEqual(expect.objectContaining({ severity: 'warning', code: 'library-timer', line: 7 }));

      const compiled = await runCli(['compile', sketch, '--fqbn', 'arduino:avr:uno'], { env });
      expect(compiled.code, compiled.stdout + compiled.stderr).toBe(0);
      expect(compiled.stdout).toContain('Libraries: Servo 1.3.0');

      const simulated = await runCli(['simulate', sketch, '--fqbn', 'arduino:avr:uno', '--for', '100ms', '--json'], { env });
      expect(simulated.code, simulated.stdout + simulated.stderr).toBe(0);
      const pins = (JSON.parse(simulated.stdout) as { pins: Array<{ pin: string; risingEdges: number; periodSeconds?: number }> }).pins;
      // Servo's 50 Hz pulses on D10; D9's PWM is gone with Timer 1.
      expect(pins.find((pin) => pin.pin === 'D10')?.periodSeconds).toBeCloseTo(0.02, 3);
      expect(pins.find((pin) => pin.pin === 'D9')?.risingEdges ?? 0).toBe(0);
    }, COMPILES);
  }

  it('with analogWrite on D5 (Timer 0) beside the servo: no warning, and D5 shows a quarter duty', async () => {
    const env = environment(CONFIGURATIONS[0]);
    const sketch = sketchFolder('ServoPwm', servoAndPwm(5));
    const context = await runCli(['context', sketch, '--fqbn', 'arduino:avr:uno', '--json'], { env });
    expect(context.code, context.stderr).toBe(0);
    expect((JSON.parse(context.stdout) as HardwareContext).findings.filter((finding) => finding.severity !== 'info')).toEqual([]);
    const simulated = await runCli(['simulate', sketch, '--fqbn', 'arduino:avr:uno', '--for', '100ms', '--json'], { env });
    expect(simulated.code, simulated.stdout + simulated.stderr).toBe(0);
    const d5 = (JSON.parse(simulated.stdout) as { pins: Array<{ pin: string; dutyPercent?: number }> }).pins.find((pin) => pin.pin === 'D5');
    // Timer 0's fast PWM: OCR0B = 64 keeps the pin high for 65 of 256 counts.
    expect(d5?.dutyPercent).toBeCloseTo((65 / 256) * 100, 0);
  }, COMPILES);

  it('on the Mega, thirteen servos compile with the sketchbook’s Servo, and analogWrite on D45 (Timer 5) and D11 (Timer 1, the thirteenth servo’s) are warnings', async () => {
    const env = environment(CONFIGURATIONS[0]);
    const source = '#include <Servo.h>\nServo arm[13];\nvoid setup() {\n  for (int i = 0; i < 13; i++) arm[i].attach(22 + i);\n  analogWrite(45, 64);\n  analogWrite(11, 64);\n  analogWrite(9, 64);\n}\nvoid loop() {}\n';
    const sketch = sketchFolder('Arms', source);
    const fqbn = 'arduino:avr:mega:cpu=atmega2560';
    const context = await runCli(['context', sketch, '--fqbn', fqbn, '--json'], { env });
    expect(context.code, context.stderr).toBe(0);
    const warnings = (JSON.parse(context.stdout) as HardwareContext).findings.filter((finding) => finding.code === 'library-timer');
    expect(warnings.map((finding) => [finding.line, /from (Timer \d)/.exec(finding.message)?.[1]])).toEqual([[5, 'Timer 5'], [6, 'Timer 1']]);
    const compiled = await runCli(['compile', sketch, '--fqbn', fqbn], { env });
    expect(compiled.code, compiled.stdout + compiled.stderr).toBe(0);
    expect(compiled.stdout).toContain('Libraries: Servo 1.3.0');
  }, COMPILES);

  it('with none of them, the context and the compiler agree that Servo.h is not installed', async () => {
    const env = environment();
    const sketch = sketchFolder('ServoPwm', servoAndPwm(9));
    const context = await runCli(['context', sketch, '--fqbn', 'arduino:avr:uno', '--json'], { env });
    expect(context.code, context.stderr).toBe(0);
    expect((JSON.parse(context.stdout) as HardwareContext).findings).toContainEqual(expect.objectContaining({ severity: 'error', code: 'include-unresolved', line: 1 }));
    const compiled = await runCli(['compile', sketch, '--fqbn', 'arduino:avr:uno'], { env });
    expect(compiled.code).toBe(1);
    expect(compiled.stdout).toContain('Servo.h: No such file or directory');
  }, COMPILES);
});
