// What the scripted model answers in the screenshot tests (panel-screenshots in Chromium,
// code-server-screenshots in code-server): a reply in markdown with a C++ block, a write that
// makes Blink fade on D9, and a 2.2 s simulation of it.
import type { ScriptTurn } from '../support/model-server/index.js';

// analogWrite's duty from 0 to 254 in 8 ms steps: one fade takes 2.03 s.
export const FADE = 'void setup() {\n  pinMode(9, OUTPUT);\n}\n\nvoid loop() {\n  for (int i = 0; i < 255; i++) {\n    analogWrite(9, i);\n    delay(8);\n  }\n}\n';

export const REPLY = [
  'The LED is on **D13**, which has no PWM. To fade it, move it to one of the PWM pins:',
  '',
  '- **D9** (Timer 1, 490 Hz)',
  '- D3, D5, D6, D10 or D11',
  '',
  'Then ramp the duty with `analogWrite`:',
  '',
  '```cpp',
  'for (int i = 0; i < 255; i++) {',
  '  analogWrite(9, i);  // 0..255',
  '  delay(8);',
  '}',
  '```',
].join('\n');

/** The three turns, for the sketch `made` (from tempSketch). */
export function screenshotTurns(made: { sketch: string; ino: string }): ScriptTurn[] {
  return [
    { whenUserSays: 'how do I fade', replies: [{ say: REPLY }] },
    { whenUserSays: 'make it fade', replies: [{ tool: { claude: { name: 'Write', input: { file_path: made.ino, content: FADE } } } }, { say: 'D9 now fades up in about 2 s.' }] },
    {
      whenUserSays: 'try the fade',
      replies: [
        { tool: { claude: { name: 'mcp__boardbridge__simulate', input: { sketch: made.sketch, fqbn: 'arduino:avr:uno', for: '2.2s' } } } },
        { say: 'D9 ramps from 0 to 100 % duty over 2 s, then starts again.' },
      ],
    },
  ];
}
