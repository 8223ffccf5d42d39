// The context command line marks its process as one that runs one command (platform/one-command.ts):
// it keeps no stamps and makes none of the copies a longer-lived process makes of what it keeps for
// later commands (the pin map, the board's layered properties). What it prints must be what a
// longer-lived process builds: here, this test's own process, which loads the same sketches on the
// same boards through the same context service, two sketches a board, so the second finds the
// first's board and pin map in its caches and works on copies of them.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContextService } from '../../bridge/context/context-service.js';
import { fixture } from '../support/fixtures.js';
import { repoRoot } from './run-cli.js';

const bundle = path.join(repoRoot, 'dist', 'cli', 'boardbridge.cjs');
const sketches = ['Blink', 'PinChecks'].map((name) => path.join(repoRoot, 'test', 'fixtures', 'arduino', 'sketches', name));
const boards = [
  'arduino:avr:uno',
  'arduino:renesas_uno:minima',
  'arduino:samd:nano_33_iot',
  'arduino:mbed:nano33ble',
  'rp2040:rp2040:rpipico',
  'STMicroelectronics:stm32:Nucleo_64:pnum=NUCLEO_F401RE',
  'STMicroelectronics:stm32:GenF1:pnum=BLUEPILL_F103C8',
  'cm:esp32:ringo',
];
const settings = { BOARDBRIDGE_NO_CACHE: '1', ARDUINO_DIRECTORIES_DATA: fixture('arduino', 'data_dir_32bit') };

describe('the context command line, one command in its process', () => {
  const saved: Record<string, string | undefined> = {};
  let service: ContextService;
  beforeAll(async () => {
    // Set before the providers load: they read their settings from the environment, as the command line's do.
    for (const [name, value] of Object.entries(settings)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    const [{ ContextService }, { allProviders }] = await Promise.all([import('../../bridge/context/context-service.js'), import('../../context-providers/index.js')]);
    service = new ContextService(allProviders());
  });
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it.each(boards)('prints on %s the context a longer-lived process builds, for a first sketch and a second', async (fqbn) => {
    for (const sketch of sketches) {
      const printed = spawnSync(process.execPath, [bundle, 'context', sketch, '--fqbn', fqbn, '--json'], { encoding: 'utf8', env: { ...process.env, ...settings }, cwd: repoRoot });
      expect(printed.status, printed.stderr).toBe(0);
      const loaded = await service.load(sketch, { board: fqbn });
      expect(loaded, `${fqbn} ${sketch}`).toBeDefined();
      expect(JSON.parse(printed.stdout), `${fqbn} ${path.basename(sketch)}`).toEqual(JSON.parse(JSON.stringify(loaded!.context)));
    }
  });
});
