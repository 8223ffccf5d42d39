// Where the tests find real platform files: the shared fixtures beside the checkout and the
// Debian packages the CI image installs (docs/hardware-rig.md).
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { fixture } from '../../support/fixtures.js';

export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
export const FIXTURES = fixture('arduino');
export const OWN_FIXTURES = resolve(REPO_ROOT, 'test/fixtures/arduino');
export const DATA_DIR = resolve(FIXTURES, 'data_dir');
export const USER_HARDWARE = resolve(FIXTURES, 'user_hardware');
export const DEBIAN_AVR = '/usr/share/arduino/hardware/arduino/avr';
/** Scratch space, gitignored. */
export const TMP = resolve(REPO_ROOT, '.tmp/arduino-tests');
/** Six real 32-bit platforms laid out as an arduino-cli data directory (SOURCES.md). */
export const DATA_DIR_32BIT = resolve(FIXTURES, 'data_dir_32bit');
