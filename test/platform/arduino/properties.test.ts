import { describe, expect, test } from 'vitest';
import { expandReferences, parseProperties, Properties } from '../../../platform/arduino/properties.js';

describe('the properties-file format', () => {
  test('comments and blank lines are skipped and keys and values are trimmed', () => {
    const { properties, warnings } = parseProperties('# comment\n\n  uno.name = Arduino Uno  \n', 'boards.txt', 'linux');
    expect(properties.toObject()).toEqual({ 'uno.name': 'Arduino Uno' });
    expect(properties.source('uno.name')).toEqual({ file: 'boards.txt', line: 3 });
    expect(warnings).toEqual([]);
  });

  test("the running OS's suffix is stripped and the later line wins", () => {
    const text = 'tools.x.cmd.linux=first\ntools.x.cmd=plain\ntools.x.cmd.windows=win.exe\n';
    const { properties } = parseProperties(text, 'platform.txt', 'linux');
    expect(properties.get('tools.x.cmd')).toBe('plain');
    expect(properties.get('tools.x.cmd.windows')).toBe('win.exe');
    const reversed = parseProperties('tools.x.cmd=plain\ntools.x.cmd.linux=linux-only\n', 'platform.txt', 'linux');
    expect(reversed.properties.get('tools.x.cmd')).toBe('linux-only');
  });

  test('values may contain = and a line without = is a warning with file:line, the rest still loads', () => {
    const { properties, warnings } = parseProperties('a=b=c\nthis is broken\nd=e\n', '/x/boards.txt', 'linux');
    expect(properties.get('a')).toBe('b=c');
    expect(properties.get('d')).toBe('e');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ file: '/x/boards.txt', line: 2, code: 'properties-malformed-line' });
    expect(warnings[0].message).toContain('/x/boards.txt:2');
  });

  test('{} references expand recursively and unknown references stay as written', () => {
    const { properties } = parseProperties('a={b} {unknown}\nb={c}!\nc=deep\n', 'p.txt', 'linux');
    expect(properties.expand('{a}')).toBe('deep! {unknown}');
  });

  test('expansion stops after 10 rounds so a self-reference cannot loop', () => {
    const lookup = (key: string) => (key === 'loop' ? '<{loop}>' : undefined);
    expect(expandReferences('{loop}', lookup)).toBe(`${'<'.repeat(10)}{loop}${'>'.repeat(10)}`);
  });

  test('setting a key again moves it to the end, which decides first-level order', () => {
    const map = new Properties();
    map.set('b.x', '1');
    map.set('a.x', '2');
    map.set('b.x', '3');
    expect(map.firstLevelKeys()).toEqual(['a', 'b']);
    expect(map.subTree('b').toObject()).toEqual({ x: '3' });
    expect([...map.firstLevelOf().keys()]).toEqual(['a', 'b']);
  });
});
