// A board's menus are read from its keys in one pass (an STM32 board has a thousand, most of them
// its pnum menu's). What that pass gives must be what Properties' own tree reading of the same keys
// gives: menu.<menu> as a subtree, its options as first-level keys, an option's label as its value
// and its sub-keys as its group. Checked on every board of the six real 32-bit platforms, the
// Debian AVR platform and the fixture platforms (hidden options, OS suffixes), option by option:
// labels and their order, the default, and each option's sub-keys with their values and lines.
import { describe, expect, test } from 'vitest';
import { discoverPlatforms } from '../../../platform/arduino/platforms.js';
import type { BoardDefinition } from '../../../platform/arduino/platform-release.js';
import type { Properties } from '../../../platform/arduino/properties.js';
import { DATA_DIR, DATA_DIR_32BIT, TMP, USER_HARDWARE } from '../../context-providers/arduino/paths.js';

/** The menus as the generic tree operations read them from the board's keys. */
function treeReading(properties: Properties) {
  const menus = new Map<string, { labels: Map<string, string>; groups: ReturnType<Properties['firstLevelGroups']> }>();
  for (const [menuId, optionTree] of properties.subTree('menu').firstLevelOf()) {
    const labels = new Map<string, string>();
    for (const value of optionTree.firstLevelKeys()) {
      const label = optionTree.get(value);
      if (label !== undefined) labels.set(value, label);
    }
    if (labels.size > 0) menus.set(menuId, { labels, groups: optionTree.firstLevelGroups() });
  }
  return menus;
}

const entriesOf = (properties: Properties | undefined) => [...(properties?.entries() ?? [])].map(([key, value]) => [key, value, properties!.source(key)]);

function expectSameMenus(board: BoardDefinition): number {
  const expected = treeReading(board.properties);
  expect([...board.menus.keys()], board.id).toEqual([...expected.keys()]);
  let options = 0;
  for (const [menuId, { labels, groups }] of expected) {
    expect([...board.menus.get(menuId)!], `${board.id} ${menuId}`).toEqual([...labels]);
    expect(board.defaults.get(menuId)).toBe(labels.keys().next().value);
    for (const value of labels.keys()) {
      const sub = board.menuProperties.get(menuId)!.get(value);
      expect(entriesOf(sub), `${board.id} menu.${menuId}.${value}`).toEqual(entriesOf(groups.get(value)));
      options++;
    }
    // A key of the menu that is not a visible option has no sub-keys to give.
    for (const value of groups.keys()) if (!labels.has(value)) expect(board.menuProperties.get(menuId)!.get(value)).toBeUndefined();
  }
  return options;
}

describe("a board's menus read in one pass over its keys", () => {
  test.each([
    ['the six 32-bit platforms', { dataDirs: [DATA_DIR_32BIT], sketchbookDirs: [], includeDebian: false }],
    ["Debian's AVR platform and the fixture platforms", { dataDirs: [DATA_DIR], sketchbookDirs: [], hardwareDirs: [USER_HARDWARE] }],
  ])('%s: the same menus, labels, defaults and sub-keys as the tree reading', async (_name, where) => {
    const installed = await discoverPlatforms({ ...where, home: TMP });
    let boards = 0;
    let options = 0;
    for (const platform of installed.platforms.values()) {
      for (const board of platform.load().boards.values()) {
        options += expectSameMenus(board);
        boards++;
      }
    }
    // Every platform was read, with its menus.
    expect(boards).toBeGreaterThan(10);
    expect(options).toBeGreaterThan(boards);
  });
});
