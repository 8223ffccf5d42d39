// Which library a header belongs to, for the libraries people install most, from
// boards/data/library-pins.json: each entry's Library Manager name is the `name=` of that
// library's library.properties at the commit it cites. Only these names are known; any other
// missing header gets a search hint, never a guessed name.
import { dataJson } from '../../platform/data-files.js';

export interface LibraryIndexEntry {
  library: string;
  header: string;
  source: { repository: string; commit: string; file: string; version?: string; lines?: string };
  /** The line of arduino/library-registry's repositories.txt that registers the library with Library Manager. */
  registry?: { repository: string; commit: string; file: string; line: number };
  /** Constructors and pin-taking members quoted from the header at that commit (library-pins.ts). */
  declarations?: string;
}

/** The cited entries, read from the data file the first time a header is looked up. */
export function libraryIndex(): readonly LibraryIndexEntry[] {
  return dataJson<{ libraries: LibraryIndexEntry[] }>('library-pins.json').libraries;
}

/** The Library Manager name of the library a header belongs to, when the cited data file knows it. */
export function libraryIndexName(header: string): LibraryIndexEntry | undefined {
  return libraryIndex().find((entry) => entry.header === header);
}
