// The timers Servo takes, read from the installed Servo 1.3.0's own ServoTimers.h under each board's
// defines (arduino/sketchbook in the fixtures folder), and the analogWrite calls they silence. The
// timer order is checked against avr-gcc's own preprocessor for the same MCU.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createArduinoProvider } from '../../../context-providers/arduino/provider.js';
import type { HardwareContext } from '../../../context-providers/types.js';
import { servoAndPwm } from '../../rig/simulate-sketches.js';
import { sketchFolder } from '../../rig/sketches.js';
import { DATA_DIR_32BIT, FIXTURES, TMP } from './paths.js';

const SKETCHBOOK = join(FIXTURES, 'sketchbook');
const SERVO_SRC = join(SKETCHBOOK, 'libraries', 'Servo', 'src');
const UNO = 'arduino:avr:uno';
const MEGA = 'arduino:avr:mega:cpu=atmega2560';

async function contextOf(source: string, fqbn: string, dataDirs: string[] = []): Promise<HardwareContext> {
  const provider = createArduinoProvider({ dataDirs, sketchbookDirs: [SKETCHBOOK], home: TMP });
  const sketch = sketchFolder('Servos', source);
  return provider.load((await provider.detect(sketch))!, { board: fqbn });
}

const timerWarnings = (context: HardwareContext) => context.findings.filter((finding) => finding.code === 'library-timer');

/** `#include <Servo.h>`, `count` servos (an array when more than one), each attached, then the analogWrite calls. */
function servos(count: number, writes: number[], declaration = count === 1 ? 'Servo s;' : `Servo s[${count}];`): string {
  const attach = count === 1 ? 's.attach(22);' : `for (int i = 0; i < ${count}; i++) s[i].attach(22 + i);`;
  return `#include <Servo.h>\n${declaration}\nvoid setup() {\n  ${attach}\n${writes.map((pin) => `  analogWrite(${pin}, 64);\n`).join('')}}\nvoid loop() {}\n`;
}

describe('Servo’s timers, from its ServoTimers.h', () => {
  test('on the Uno the context says Servo uses Timer 1 and which PWM pins stop', async () => {
    const context = await contextOf(servoAndPwm(9), UNO);
    const note = context.notes?.find((entry) => entry.topic === 'Servo');
    expect(note).toEqual({ topic: 'Servo', text: 'Servo uses Timer 1: analogWrite on D9, D10 gives no PWM while a servo is attached', source: { file: join(SERVO_SRC, 'avr', 'ServoTimers.h'), line: 57 } });
    expect(context.inputs).toContain(join(SERVO_SRC, 'avr', 'ServoTimers.h'));
  });

  test('analogWrite(9, …) beside an attached servo on the Uno is a warning at its line; analogWrite(5, …) is not', async () => {
    const nine = timerWarnings(await contextOf(servoAndPwm(9), UNO));
    expect(nine).toHaveLength(1);
    expect(nine[0]).toMatchObject({ severity: 'warning', line: 7 });
    expect(nine[0].message).toContain("analogWrite(9, …): pin 9's PWM comes from Timer 1, which the Servo library takes on Arduino UNO (ServoTimers.h:57)");
    expect(nine[0].suggestion).toContain('D3, D5, D6, D11');
    expect(timerWarnings(await contextOf(servoAndPwm(5), UNO))).toEqual([]);
  });

  test('a Servo that is never attached takes no timer', async () => {
    const idle = '#include <Servo.h>\nServo s;\nvoid setup() { analogWrite(9, 64); }\nvoid loop() {}\n';
    expect(timerWarnings(await contextOf(idle, UNO))).toEqual([]);
  });

  test('on the Mega the first servo takes Timer 5 (D44–D46), the thirteenth Timer 1 (D11, D12)', async () => {
    const one = await contextOf(servos(1, [45, 11]), MEGA);
    expect(timerWarnings(one).map((finding) => finding.line)).toEqual([5]);
    expect(timerWarnings(one)[0].message).toContain('Timer 5, which the Servo library takes for servos 1–12');
    expect(one.notes?.find((entry) => entry.topic === 'Servo')?.text).toBe(
      "Servo takes Timer 5 (servos 1–12), then Timer 1 (servos 13–24), then Timer 3 (servos 25–36), then Timer 4 (servos 37–48): while a servo on a timer is attached, analogWrite gives no PWM on that timer's pins: Timer 5: D44, D45, D46; Timer 1: D11, D12; Timer 3: D2, D3, D5; Timer 4: D6, D7, D8",
    );
    expect(timerWarnings(await contextOf(servos(12, [11]), MEGA))).toEqual([]);
    const thirteen = timerWarnings(await contextOf(servos(13, [45, 11, 2]), MEGA));
    expect(thirteen.map((finding) => finding.line)).toEqual([5, 6]);
    expect(thirteen[1].message).toContain('Timer 1, which the Servo library takes for servos 13–24 on Arduino Mega or Mega 2560 (ServoTimers.h:39); this sketch declares 13 servos');
  });

  test('when the servos cannot be counted, only the first timer is checked, and the warning says why', async () => {
    const unknown = '#include <Servo.h>\nServo *arms;\nvoid setup() {\n  arms = new Servo[20];\n  arms[0].attach(22);\n  analogWrite(45, 64);\n  analogWrite(11, 64);\n}\nvoid loop() {}\n';
    const warnings = timerWarnings(await contextOf(unknown, MEGA));
    expect(warnings.map((finding) => finding.line)).toEqual([6]);
    expect(warnings[0].message).toContain('how many servos the sketch attaches is not known, so only the first timer is checked');
  });

  test('on the SAMD Zero Servo takes TC4, the PWM counter of D15 and D16: analogWrite there is a warning that says they disturb each other', async () => {
    const context = await contextOf(servoAndPwm(15), 'arduino:samd:arduino_zero_native', [DATA_DIR_32BIT]);
    expect(context.notes?.find((entry) => entry.topic === 'Servo')).toMatchObject({ text: 'Servo uses TC4, the PWM timer of D15, D16: analogWrite there and the servos disturb each other', source: { file: join(SERVO_SRC, 'samd', 'ServoTimers.h'), line: 64 } });
    const warnings = timerWarnings(context);
    expect(warnings.map((finding) => finding.line)).toEqual([7]);
    expect(warnings[0].message).toContain("pin 15's PWM comes from TC4, which the Servo library takes on Arduino Zero (Native USB Port) (ServoTimers.h:64)");
    expect(timerWarnings(await contextOf(servoAndPwm(5), 'arduino:samd:arduino_zero_native', [DATA_DIR_32BIT]))).toEqual([]);
  });

  test.each([
    ['atmega328p', UNO, ['Timer 1']],
    ['atmega2560', MEGA, ['Timer 5', 'Timer 1', 'Timer 3', 'Timer 4']],
    ['atmega32u4', 'arduino:avr:leonardo', ['Timer 1']],
  ])('the order read for the %s is the one avr-gcc’s preprocessor gives', async (mcu, fqbn, expected) => {
    const gcc = execFileSync('avr-gcc', ['-E', '-P', `-mmcu=${mcu}`, '-DARDUINO_ARCH_AVR', '-x', 'c++', join(SERVO_SRC, 'avr', 'ServoTimers.h')], { encoding: 'utf8' });
    const sequence = /typedef enum \{([^}]*)\} timer16_Sequence_t;/.exec(gcc.replace(/\s+/g, ' '))![1].split(',').map((name) => name.trim()).filter((name) => name !== '_Nbr_16timers');
    expect(sequence.map((name) => name.replace('_timer', 'Timer '))).toEqual(expected);
    const note = (await contextOf(servoAndPwm(9), fqbn)).notes?.find((entry) => entry.topic === 'Servo')?.text ?? '';
    expect([...note.matchAll(/Timer \d/g)].map((match) => match[0]).filter((timer, index, all) => all.indexOf(timer) === index)).toEqual(expected);
  });
});
