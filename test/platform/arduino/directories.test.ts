// Where the user's Arduino folders are, decided as arduino-cli decides them
// (internal/cli/configuration in arduino/arduino-cli: the config file from ARDUINO_CONFIG_FILE or
// the data directory, the environment over the file, the old variable names over the new).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { arduinoConfigFile, arduinoDirectories } from '../../../platform/arduino/directories.js';

function home(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'bb-dirs-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('the Arduino folders of this user', () => {
  test('without configuration they are arduino-cli’s defaults for the system', async () => {
    const dir = home();
    const found = await arduinoDirectories({ home: dir, env: {}, platform: 'linux' });
    expect(found).toMatchObject({ data: join(dir, '.arduino15'), user: join(dir, 'Arduino'), origin: { data: 'default', user: 'default' } });
    expect(found.configFile).toBeUndefined();
    expect(found.builtinLibraries).toBeUndefined();
  });

  test('the default data directory’s arduino-cli.yaml names the sketchbook and built-in libraries, each cited with its line', async () => {
    const dir = home({ '.arduino15/arduino-cli.yaml': 'directories:\n  user: /srv/sketchbook\n  builtin:\n    libraries: /srv/builtin\n' });
    const found = await arduinoDirectories({ home: dir, env: {}, platform: 'linux' });
    const file = join(dir, '.arduino15/arduino-cli.yaml');
    expect(found).toMatchObject({ user: '/srv/sketchbook', builtinLibraries: '/srv/builtin', data: join(dir, '.arduino15'), configFile: file });
    expect(found.origin).toEqual({ user: `${file}:2`, builtinLibraries: `${file}:4`, data: 'default' });
  });

  test('Arduino IDE 2.x’s ~/.arduinoIDE/arduino-cli.yaml comes before the default data directory’s', async () => {
    const dir = home({ '.arduinoIDE/arduino-cli.yaml': 'directories:\n  user: /ide/sketchbook\n', '.arduino15/arduino-cli.yaml': 'directories:\n  user: /cli/sketchbook\n' });
    expect(arduinoConfigFile({ home: dir, env: {}, platform: 'linux' })).toBe(join(dir, '.arduinoIDE/arduino-cli.yaml'));
    expect((await arduinoDirectories({ home: dir, env: {}, platform: 'linux' })).user).toBe('/ide/sketchbook');
  });

  test('ARDUINO_CONFIG_FILE, then arduino-cli.yaml in ARDUINO_DIRECTORIES_DATA, come before the IDE’s copy', async () => {
    const dir = home({ '.arduinoIDE/arduino-cli.yaml': 'directories:\n  user: /ide/sketchbook\n', 'mine.yaml': 'directories:\n  user: /mine\n', 'data/arduino-cli.yaml': 'directories:\n  user: /from-data\n' });
    expect((await arduinoDirectories({ home: dir, env: { ARDUINO_CONFIG_FILE: join(dir, 'mine.yaml'), ARDUINO_DIRECTORIES_DATA: join(dir, 'data') } })).user).toBe('/mine');
    const fromData = await arduinoDirectories({ home: dir, env: { ARDUINO_DIRECTORIES_DATA: join(dir, 'data') } });
    expect(fromData).toMatchObject({ user: '/from-data', data: join(dir, 'data'), origin: { data: 'ARDUINO_DIRECTORIES_DATA' } });
  });

  test('the environment wins over the file; the old ARDUINO_SKETCHBOOK_DIR over ARDUINO_DIRECTORIES_USER; names match in any case', async () => {
    const dir = home({ '.arduino15/arduino-cli.yaml': 'directories:\n  user: /cli/sketchbook\n' });
    const env = (extra: NodeJS.ProcessEnv) => arduinoDirectories({ home: dir, env: extra, platform: 'linux' });
    expect(await env({ ARDUINO_DIRECTORIES_USER: '/env' })).toMatchObject({ user: '/env', origin: { user: 'ARDUINO_DIRECTORIES_USER' } });
    expect((await env({ arduino_directories_user: '/lower' })).user).toBe('/lower');
    expect((await env({ ARDUINO_DIRECTORIES_USER: '/env', ARDUINO_SKETCHBOOK_DIR: '/old' })).user).toBe('/old');
    expect((await env({ ARDUINO_DIRECTORIES_BUILTIN_LIBRARIES: '/builtin' })).builtinLibraries).toBe('/builtin');
  });

  test('an ARDUINO_CONFIG_FILE that does not exist is a warning that names it; the defaults apply', async () => {
    const dir = home();
    const found = await arduinoDirectories({ home: dir, env: { ARDUINO_CONFIG_FILE: join(dir, 'missing.yaml') }, platform: 'linux' });
    expect(found.user).toBe(join(dir, 'Arduino'));
    expect(found.warnings).toEqual([expect.objectContaining({ code: 'arduino-config-missing', file: join(dir, 'missing.yaml') })]);
  });
});
