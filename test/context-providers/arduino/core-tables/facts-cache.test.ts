// A reader's facts are kept until a file they were read from changes, appears or disappears.
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { CoreFacts } from '../../../../context-providers/arduino/core-tables/index.js';
import { FactsCache } from '../../../../context-providers/arduino/core-tables/facts-cache.js';
import { TMP } from '../paths.js';

test('cached facts last until a file they read is edited or a file they looked for appears', () => {
  const dir = join(TMP, 'facts-cache');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const header = join(dir, 'pins_arduino.h');
  const missing = join(dir, 'platform_def.txt');
  writeFileSync(header, '#define PIN_LED 25\n');
  const facts: CoreFacts = { core: 'rp2040', pins: [], known: { pwm: { known: false, reason: 'x' }, analog: { known: false, reason: 'x' }, interrupt: { known: false, reason: 'x' }, dac: { known: false, reason: 'x' }, serial: { known: false, reason: 'x' } }, notes: [], files: [header, missing], warnings: [] };
  const cache = new FactsCache();
  cache.set('pico', facts);
  expect(cache.get('pico')).toBe(facts);
  writeFileSync(missing, '-DPICO_RP2040=1\n');
  expect(cache.get('pico')).toBeUndefined();
  cache.set('pico', facts);
  writeFileSync(header, '#define PIN_LED 24\n');
  utimesSync(header, new Date(), new Date(Date.now() + 5000));
  expect(cache.get('pico')).toBeUndefined();
});
