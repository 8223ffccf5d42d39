import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { resolveIncludes } from '../../../context-providers/arduino/includes.js';
import { scanLibraries, type Library } from '../../../context-providers/arduino/libraries.js';
import { parseConstraint, parseDepends, satisfies } from '../../../context-providers/arduino/library-depends.js';
import { discoverPlatforms } from '../../../platform/arduino/platforms.js';
import { resolveFqbn, type ResolvedBoard } from '../../../platform/arduino/resolve.js';
import { readSketch } from '../../../context-providers/arduino/sketch.js';
import { DEBIAN_AVR, OWN_FIXTURES, TMP } from './paths.js';

const SKETCHBOOK = join(OWN_FIXTURES, 'sketchbook');

describe('library.properties', () => {
  test('every field is read and both layouts are recognised', () => {
    const scan = scanLibraries([{ dir: join(SKETCHBOOK, 'libraries'), location: 'user' }]);
    const servo = scan.libraries.find((library) => library.name === 'Servo')!;
    expect(servo).toMatchObject({ version: '1.1.8', layout: 'recursive', category: 'Device Control', architectures: ['avr', 'megaavr', 'sam', 'samd'], includes: ['Servo.h'], headers: ['Servo.h'] });
    expect(servo.sourceDir).toBe(join(SKETCHBOOK, 'libraries/Servo/src'));
    const flat = scan.libraries.find((library) => library.name === 'FlatLib')!;
    expect(flat).toMatchObject({ layout: 'flat', architectures: ['*'], headers: ['FlatLib.h'] });
  });

  test('a broken library.properties gives warnings with file:line and the library still loads', () => {
    const scan = scanLibraries([{ dir: join(SKETCHBOOK, 'libraries'), location: 'user' }]);
    const file = join(SKETCHBOOK, 'libraries/Broken/library.properties');
    expect(scan.libraries.some((library) => library.name === 'Broken')).toBe(true);
    expect(scan.warnings.find((warning) => warning.code === 'properties-malformed-line')).toMatchObject({ file, line: 2 });
    expect(scan.warnings.some((warning) => warning.file === file && warning.message.includes('missing "version"'))).toBe(true);
  });

  test('a library linked into the sketchbook (a library under development) is read like a copied one; a linked file is not a library', () => {
    mkdirSync(TMP, { recursive: true });
    const dir = mkdtempSync(join(TMP, 'linked-libraries-'));
    try {
      cpSync(join(SKETCHBOOK, 'libraries', 'Servo'), join(dir, 'work', 'Servo'), { recursive: true });
      cpSync(join(SKETCHBOOK, 'libraries', 'FlatLib'), join(dir, 'work', 'FlatLib'), { recursive: true });
      mkdirSync(join(dir, 'libraries'));
      symlinkSync(join(dir, 'work', 'Servo'), join(dir, 'libraries', 'Servo'));
      symlinkSync(join(dir, 'work', 'FlatLib'), join(dir, 'libraries', 'FlatLib'));
      writeFileSync(join(dir, 'work', 'notes.h'), '#pragma once\n');
      symlinkSync(join(dir, 'work', 'notes.h'), join(dir, 'libraries', 'notes.h'));
      symlinkSync(join(dir, 'work', 'gone'), join(dir, 'libraries', 'Dangling'));
      const linked = scanLibraries([{ dir: join(dir, 'libraries'), location: 'user' }]).libraries;
      const copied = scanLibraries([{ dir: join(dir, 'work'), location: 'user' }]).libraries;
      expect(linked.map((library) => library.name)).toEqual(['FlatLib', 'Servo']);
      expect(linked.map(({ name, layout, headers, version }) => ({ name, layout, headers, version }))).toEqual(
        copied.map(({ name, layout, headers, version }) => ({ name, layout, headers, version })),
      );
      expect(linked.find((library) => library.name === 'Servo')!.sourceDir).toBe(join(dir, 'libraries', 'Servo', 'src'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('depends constraints parse with comparison, not, and, or and parentheses', () => {
    const parsed = parseDepends('MissingLib (>=1.0), Servo (>=2.0 || =1.0.0), FlatLib, Other (!(>1.0 && <2.0))');
    expect(parsed.ok).toBe(true);
    expect(parsed.dependencies.map((dependency) => dependency.name)).toEqual(['MissingLib', 'Servo', 'FlatLib', 'Other']);
    const other = parsed.dependencies[3].constraint!;
    expect(satisfies('1.5.0', other)).toBe(false);
    expect(satisfies('2.0.0', other)).toBe(true);
    expect(satisfies('1.0.0', parseConstraint('>=2.0 || =1.0.0'))).toBe(true);
    expect(parseDepends('Bad (>= )').ok).toBe(false);
  });
});

describe("a sketch's includes resolve in arduino-cli's priority order", () => {
  let uno: ResolvedBoard;
  let libraries: Library[];
  beforeAll(async () => {
    const installed = await discoverPlatforms({ dataDirs: [], sketchbookDirs: [SKETCHBOOK], home: TMP });
    uno = resolveFqbn('arduino:avr:uno', installed);
    libraries = scanLibraries([
      { dir: join(SKETCHBOOK, 'libraries'), location: 'user' },
      { dir: join(DEBIAN_AVR, 'libraries'), location: 'platform' },
    ]).libraries;
  });

  const resolveSketch = async () => {
    const sketch = (await readSketch(join(OWN_FIXTURES, 'sketches/Libraries')))!;
    return resolveIncludes(sketch.files, uno, libraries);
  };

  test('sketch-local, user, platform and toolchain headers each resolve to where the build finds them', async () => {
    const byInclude = new Map((await resolveSketch()).libraries.map((ref) => [ref.include, ref]));
    expect(byInclude.get('local.h')?.location).toBe('sketch');
    expect(byInclude.get('Servo.h')).toMatchObject({ name: 'Servo', location: 'user', version: '1.1.8' });
    expect(byInclude.get('FlatLib.h')).toMatchObject({ name: 'FlatLib', location: 'user' });
    expect(byInclude.get('SPI.h')).toMatchObject({ name: 'SPI', location: 'platform', path: join(DEBIAN_AVR, 'libraries/SPI') });
    expect(byInclude.get('avr/pgmspace.h')?.location).toBe('toolchain');
    expect(byInclude.get('stdint.h')?.location).toBe('toolchain');
    expect(byInclude.has('CommentedOut.h')).toBe(false);
  });

  test("the platform's avr-specific Wire outranks a user Wire that claims every architecture", async () => {
    const wire = (await resolveSketch()).libraries.find((ref) => ref.include === 'Wire.h');
    expect(wire).toMatchObject({ location: 'platform', version: '1.0' });
  });

  test('an unknown header, an incompatible library and unmet depends become findings with file:line', async () => {
    const { findings } = await resolveSketch();
    const ino = join(OWN_FIXTURES, 'sketches/Libraries/Libraries.ino');
    expect(findings.find((finding) => finding.code === 'include-unresolved')).toMatchObject({ severity: 'error', file: ino, line: 6 });
    expect(findings.find((finding) => finding.code === 'library-incompatible')).toMatchObject({ file: ino, line: 3 });
    const dependencies = findings.filter((finding) => finding.code === 'library-dependency').map((finding) => finding.message);
    expect(dependencies).toEqual([
      'NeedsDep depends on MissingLib (>=1.0), which is not installed',
      'NeedsDep depends on Servo (>=2.0 || =1.0.0), but only version 1.1.8 is installed',
    ]);
    expect(findings.find((finding) => finding.code === 'library-dependency')?.line).toBe(4);
  });
});
