// The one stamp-checked cache (contexts, a reader's facts, a workspace's loaded context): a value
// lasts until a file it was built from is edited or a file it looked for appears, and the cache
// keeps at most its capacity, the least recently used dropped first.
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { CoreFacts } from '../../../context-providers/arduino/core-tables/index.js';
import { StampedCache } from '../../../context-providers/arduino/cache.js';
import { markOneCommandProcess } from '../../../platform/one-command.js';
import { TMP } from './paths.js';

test('cached facts last until a file they read is edited or a file they looked for appears', () => {
  const dir = join(TMP, 'facts-cache');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const header = join(dir, 'pins_arduino.h');
  const missing = join(dir, 'platform_def.txt');
  writeFileSync(header, '#define PIN_LED 25\n');
  const facts: CoreFacts = { core: 'rp2040', pins: [], known: { pwm: { known: false, reason: 'x' }, analog: { known: false, reason: 'x' }, interrupt: { known: false, reason: 'x' }, dac: { known: false, reason: 'x' }, serial: { known: false, reason: 'x' } }, notes: [], files: [header, missing], warnings: [] };
  const cache = new StampedCache<CoreFacts>(64);
  cache.build('pico', () => facts, (f) => f.files);
  expect(cache.get('pico')).toBe(facts);
  writeFileSync(missing, '-DPICO_RP2040=1\n');
  expect(cache.get('pico')).toBeUndefined();
  cache.set('pico', facts, facts.files);
  writeFileSync(header, '#define PIN_LED 24\n');
  utimesSync(header, new Date(), new Date(Date.now() + 5000));
  expect(cache.get('pico')).toBeUndefined();
});

test('the cache is bounded: past its capacity the least recently used value goes', () => {
  const cache = new StampedCache<number>(3);
  for (const key of ['a', 'b', 'c']) cache.set(key, key.charCodeAt(0), []);
  expect(cache.get('a')).toBe(97);
  cache.set('d', 100, []);
  expect(cache.size).toBe(3);
  expect(cache.get('b')).toBeUndefined();
  expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([97, 99, 100]);
  for (let i = 0; i < 1000; i++) cache.set(`k${i}`, i, []);
  expect(cache.size).toBe(3);
});

test('in a process marked as running one command, a value is kept for that command without the stamps of its files', () => {
  const dir = join(TMP, 'one-command-cache');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const header = join(dir, 'pins_arduino.h');
  writeFileSync(header, '#define PIN_LED 25\n');
  const mark = Symbol.for('boardbridge.oneCommandProcess');
  markOneCommandProcess();
  try {
    const cache = new StampedCache<string>(4);
    cache.set('pico', 'read once', [header]);
    writeFileSync(header, '#define PIN_LED 24 /* edited */\n');
    utimesSync(header, new Date(), new Date(Date.now() + 5000));
    // Not stamped, so not compared: the command that stored it is the only one that asks.
    expect(cache.get('pico')).toBe('read once');
  } finally {
    delete (process as unknown as Record<symbol, unknown>)[mark];
  }
  // Unmarked again, a value is stamped and an edit drops it.
  const cache = new StampedCache<string>(4);
  cache.set('pico', 'stamped', [header]);
  writeFileSync(header, '#define PIN_LED 23\n');
  utimesSync(header, new Date(), new Date(Date.now() + 10000));
  expect(cache.get('pico')).toBeUndefined();
});
