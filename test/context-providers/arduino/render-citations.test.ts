// The markdown's citations: a file in the platform prints as P/<path>, one in the sketch as its
// path in the sketch, each as path.relative gives it, whatever form the context's paths take.
import { relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { renderArduinoContext } from '../../../context-providers/arduino/render.js';
import type { HardwareContext } from '../../../context-providers/types.js';
import { sketch, sketchContext } from './sketch-findings.js';

const TEXT = 'void setup() {\n  pinMode(13, OUTPUT);\n  analogWrite(15, 128);\n}\nvoid loop() {}\n';

/** The context with every string that starts with `prefix` rewritten by `change`. */
function rewritten(context: HardwareContext, prefix: string, change: (value: string) => string): HardwareContext {
  return JSON.parse(JSON.stringify(context), (_key, value: unknown) => (typeof value === 'string' && value.startsWith(prefix) ? change(value) : value)) as HardwareContext;
}

describe('citations in the markdown', () => {
  for (const board of ['arduino:avr:uno', 'arduino:renesas_uno:minima']) {
    test(`${board}: each P/ citation is path.relative of the platform and the cited file`, async () => {
      const context = await sketchContext('Citations', board, sketch('Citations', TEXT));
      const platform = context.toolchain!.path!;
      const text = renderArduinoContext(context);
      // The board's facts (MCU, clock, memory, upload) are each shown with their boards.txt line.
      const cited = new Set(
        Object.values(context.board.sources ?? {})
          .map((ref) => ref.file)
          .filter((file): file is string => typeof file === 'string' && file.startsWith(`${platform}/`)),
      );
      expect(cited.size).toBeGreaterThan(0);
      for (const file of cited) expect(text).toContain(`P/${relative(platform, file)}`);
      // The sketch's own finding cites its line in the sketch's own file.
      expect(text).toMatch(/Citations\.ino:3/);
    });

    test(`${board}: paths with ./ and ../ segments and doubled slashes print as their normal form does`, async () => {
      const context = await sketchContext('Citations', board, sketch('Citations', TEXT));
      const platform = context.toolchain!.path!;
      const expected = renderArduinoContext(context);
      const parent = platform.slice(0, platform.lastIndexOf('/'));
      const name = platform.slice(parent.length + 1);
      // Inside the platform only: the platform's own path stays as it is.
      const dotted = rewritten(context, `${platform}/`, (file) => `${platform}/./${file.slice(platform.length + 1)}`);
      const doubled = rewritten(context, `${platform}/`, (file) => `${platform}//${file.slice(platform.length + 1)}`);
      const upAndBack = rewritten(context, `${platform}/`, (file) => `${platform}/../${name}/${file.slice(platform.length + 1)}`);
      for (const changed of [dotted, doubled, upAndBack]) expect(renderArduinoContext(changed)).toBe(expected);
    });
  }
});
