// An immutable list that appends and replaces in (practically) constant time, however
// long it gets: a 32-way trie with the last 32 items in a separate tail, so a push
// or a change copies at most a few 32-slot arrays. The conversation's entries live
// in one, and so do a message's chunks (a session has millions of them).

const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;

type Node = readonly unknown[];

export class EntryList<T> implements Iterable<T> {
  static empty<T>(): EntryList<T> {
    return new EntryList<T>([], BITS, [], 0);
  }

  static of<T>(...items: T[]): EntryList<T> {
    let list = EntryList.empty<T>();
    for (const item of items) list = list.push(item);
    return list;
  }

  private constructor(
    private readonly root: Node,
    private readonly shift: number,
    private readonly tail: readonly T[],
    readonly length: number,
  ) {}

  get(index: number): T | undefined {
    if (index < 0 || index >= this.length || !Number.isInteger(index)) return undefined;
    const tailStart = this.tailStart();
    if (index >= tailStart) return this.tail[index - tailStart];
    let node = this.root;
    for (let level = this.shift; level > 0; level -= BITS) node = node[(index >>> level) & MASK] as Node;
    return node[index & MASK] as T;
  }

  last(): T | undefined {
    return this.get(this.length - 1);
  }

  set(index: number, value: T): EntryList<T> {
    if (index === this.length) return this.push(value);
    if (index < 0 || index > this.length || !Number.isInteger(index)) throw new RangeError(`entry ${index} is outside 0..${this.length}`);
    const tailStart = this.tailStart();
    if (index >= tailStart) {
      const tail = this.tail.slice();
      tail[index - tailStart] = value;
      return new EntryList(this.root, this.shift, tail, this.length);
    }
    return new EntryList(assoc(this.root, this.shift, index, value), this.shift, this.tail, this.length);
  }

  push(value: T): EntryList<T> {
    if (this.length - this.tailStart() < WIDTH) return new EntryList(this.root, this.shift, [...this.tail, value], this.length + 1);
    // The tail is full: it becomes a leaf of the trie, which grows a level when its root is full.
    const leaves = this.length >>> BITS;
    if (leaves > 1 << this.shift) {
      return new EntryList([this.root, path(this.shift, this.tail)], this.shift + BITS, [value], this.length + 1);
    }
    return new EntryList(pushLeaf(this.root, this.shift, this.length - 1, this.tail), this.shift, [value], this.length + 1);
  }

  toArray(): T[] {
    return [...this];
  }

  *[Symbol.iterator](): Iterator<T> {
    const tailStart = this.tailStart();
    for (let start = 0; start < tailStart; start += WIDTH) {
      let node = this.root;
      for (let level = this.shift; level > 0; level -= BITS) node = node[(start >>> level) & MASK] as Node;
      yield* node as T[];
    }
    yield* this.tail;
  }

  toJSON(): T[] {
    return this.toArray();
  }

  private tailStart(): number {
    return this.length < WIDTH ? 0 : ((this.length - 1) >>> BITS) << BITS;
  }
}

function assoc(node: Node, level: number, index: number, value: unknown): Node {
  const copy = node.slice();
  if (level === 0) copy[index & MASK] = value;
  else copy[(index >>> level) & MASK] = assoc(node[(index >>> level) & MASK] as Node, level - BITS, index, value);
  return copy;
}

function path(level: number, leaf: Node): Node {
  return level === 0 ? leaf : [path(level - BITS, leaf)];
}

// Puts a full tail as the leaf holding item `lastIndex` (the item before the push).
function pushLeaf(node: Node, level: number, lastIndex: number, leaf: Node): Node {
  const copy = node.slice();
  const slot = (lastIndex >>> level) & MASK;
  if (level === BITS) copy[slot] = leaf;
  else copy[slot] = node[slot] ? pushLeaf(node[slot] as Node, level - BITS, lastIndex, leaf) : path(level - BITS, leaf);
  return copy;
}
