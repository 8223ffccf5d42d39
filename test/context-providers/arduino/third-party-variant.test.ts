import { join } from 'node:path';
import { expect, test } from 'vitest';
import { buildPinMap } from '../../../context-providers/arduino/pin-map.js';
import { discoverPlatforms } from '../../../platform/arduino/platforms.js';
import { resolveFqbn } from '../../../platform/arduino/resolve.js';
import { OWN_FIXTURES, TMP } from './paths.js';

test('a third-party variant_h header gives pins, #if branches from build.extra_flags, UART and I2C roles', async () => {
  const installed = await discoverPlatforms({ dataDirs: [], sketchbookDirs: [], includeDebian: false, hardwareDirs: [join(OWN_FIXTURES, 'hardware')], home: TMP });
  const board = resolveFqbn('testvendor:samd:tiny', installed);
  const map = buildPinMap(board);
  expect(map.header).toBe(join(OWN_FIXTURES, 'hardware/testvendor/samd/variants/tiny/variant_TEST_TINY.h'));
  expect(map.pins).toHaveLength(12);
  expect(map.pins.filter((pin) => pin.capabilities.includes('pwm')).map((pin) => pin.number)).toEqual([2, 3, 4, 5, 8]);
  expect(map.pins[11].names).toEqual(['D11', 'A1']);
  expect(map.pins[11].capabilities).toContain('analog-in');
  expect(map.pins[0].functions).toEqual(['Serial1 RX']);
  expect(map.pins[0].capabilities).toContain('uart');
  expect(map.pins[6].functions).toEqual(['I2C SDA']);
  expect(map.pins[9].capabilities).toContain('led');
  expect(map.serialPorts).toEqual(['Serial', 'Serial1', 'SerialUSB']);
  expect(map.buses.find((bus) => bus.name === 'SerialUSB')?.kind).toBe('usb');
  expect(map.buses.find((bus) => bus.name === 'Wire')?.pins).toEqual({ SDA: 6, SCL: 7 });
});
