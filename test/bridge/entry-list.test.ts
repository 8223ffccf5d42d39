// EntryList against a plain array: the same items after any mix of pushes and changes,
// and every earlier version unchanged (the session state's history stays valid).
import { describe, expect, it } from 'vitest';
import { EntryList } from '../../bridge/session/entry-list.js';

describe('EntryList', () => {
  it('holds what an array holds after 40,000 pushes and changes, across trie levels', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    let list = EntryList.empty<number>();
    const array: number[] = [];
    const versions: Array<[EntryList<number>, number[]]> = [];
    for (let i = 0; i < 40_000; i++) {
      if (array.length && next() % 3 === 0) {
        const at = next() % array.length;
        list = list.set(at, -i);
        array[at] = -i;
      } else {
        list = list.push(i);
        array.push(i);
      }
      if (i % 4999 === 0) versions.push([list, array.slice()]);
    }
    expect(list.length).toBe(array.length);
    expect(list.toArray()).toEqual(array);
    for (let i = 0; i < array.length; i += 97) expect(list.get(i)).toBe(array[i]);
    expect(list.last()).toBe(array.at(-1));
    for (const [old, copy] of versions) expect(old.toArray()).toEqual(copy);
  });

  it('is out of range as an array is', () => {
    const list = EntryList.of('a', 'b');
    expect(list.get(2)).toBeUndefined();
    expect(list.get(-1)).toBeUndefined();
    expect(() => list.set(5, 'x')).toThrow(RangeError);
    expect(JSON.stringify(list)).toBe('["a","b"]');
  });
});
