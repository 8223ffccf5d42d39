// An immutable list of conversation entries that updates cheaply: entries sit in
// fixed-size pages, so changing one copies its page and the page table instead of
// the whole conversation (a long session has thousands of entries).

const PAGE = 128;

export class EntryList<T> implements Iterable<T> {
  static empty<T>(): EntryList<T> {
    return new EntryList<T>([], 0);
  }

  private constructor(
    private readonly pages: ReadonlyArray<readonly T[]>,
    readonly length: number,
  ) {}

  get(index: number): T | undefined {
    if (index < 0 || index >= this.length) return undefined;
    return this.pages[Math.floor(index / PAGE)][index % PAGE];
  }

  last(): T | undefined {
    return this.get(this.length - 1);
  }

  set(index: number, value: T): EntryList<T> {
    if (index === this.length) return this.push(value);
    if (index < 0 || index > this.length) throw new RangeError(`entry ${index} is outside 0..${this.length}`);
    const p = Math.floor(index / PAGE);
    const page = this.pages[p].slice();
    page[index % PAGE] = value;
    const pages = this.pages.slice();
    pages[p] = page;
    return new EntryList(pages, this.length);
  }

  push(value: T): EntryList<T> {
    const pages = this.pages.slice();
    const lastPage = pages[pages.length - 1];
    if (!lastPage || lastPage.length === PAGE) pages.push([value]);
    else pages[pages.length - 1] = [...lastPage, value];
    return new EntryList(pages, this.length + 1);
  }

  toArray(): T[] {
    return this.pages.flat() as T[];
  }

  *[Symbol.iterator](): Iterator<T> {
    for (const page of this.pages) yield* page;
  }

  toJSON(): T[] {
    return this.toArray();
  }
}
