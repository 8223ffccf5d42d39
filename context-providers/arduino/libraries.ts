// Installed Arduino libraries: library.properties (1.5 format) or the legacy flat layout, found in
// the sketchbook's libraries/, the board's platforms and the built-in folders.
import type { Finding, SourceRef } from '../types.js';
import { parseDepends, type Dependency } from './library-depends.js';
import { loadPropertiesFile } from '../../platform/arduino/properties.js';
import { childPath, listDir, listEntries } from '../../platform/arduino/folders.js';
import { DiskCache } from './disk-cache.js';

/** Lower numbers lose: arduino-cli's library location priority. */
export type LibraryLocation = 'builtin' | 'referenced-platform' | 'platform' | 'user';
export const LOCATION_PRIORITY: Record<LibraryLocation, number> = { builtin: 0, 'referenced-platform': 1, platform: 2, user: 3 };

export interface Library {
  /** `name` from library.properties, else the folder name. */
  name: string;
  dirName: string;
  dir: string;
  /** `recursive`: library.properties with src/ (only src/ is compiled); `flat`: root and utility/. */
  layout: 'recursive' | 'flat';
  /** Folder whose top-level headers the library provides. */
  sourceDir: string;
  location: LibraryLocation;
  version?: string;
  author?: string;
  maintainer?: string;
  sentence?: string;
  paragraph?: string;
  category?: string;
  url?: string;
  /** `*` when absent. */
  architectures: string[];
  depends: Dependency[];
  /** Line of `depends=` in library.properties. */
  dependsLine?: number;
  dotALinkage?: boolean;
  includes?: string[];
  precompiled?: 'true' | 'full' | 'false';
  ldflags?: string;
  /** Top-level headers of sourceDir (`Wire.h`). */
  headers: string[];
  source?: SourceRef;
}

export interface LibraryFolder {
  dir: string;
  location: LibraryLocation;
}

export interface LibraryScan {
  libraries: Library[];
  /** Every library.properties read. */
  files: string[];
  warnings: Finding[];
}

const HEADER = /\.(h|hh|hpp|hxx|h\+\+)$/i;

/** One folder's scan as DiskCache keeps it, with the files and folders it depends on. */
interface FolderScan extends LibraryScan {
  /** The folder, each entry of it, and each library's source folder: one added or removed changes its stamp. */
  folders: string[];
}

/**
 * The libraries of each folder, in order. With `store`, a folder's scan is kept in the cache
 * folder (`libraries/`) until the folder, one of its entries, a library's source folder or a
 * library.properties changes, so a new sketch does not read every library.properties again.
 */
export function scanLibraries(folders: LibraryFolder[], store?: DiskCache<FolderScan>): LibraryScan {
  const scan: LibraryScan = { libraries: [], files: [], warnings: [] };
  for (const folder of folders) {
    const key = JSON.stringify([folder.dir, folder.location]);
    let part = store?.get(key)?.value;
    if (!part) {
      part = scanFolder(folder);
      store?.set(key, part, [...part.folders, ...part.files]);
    }
    scan.libraries.push(...part.libraries);
    scan.files.push(...part.files);
    scan.warnings.push(...part.warnings);
  }
  return scan;
}

/** Where scanLibraries keeps folder scans in the cache folder `dir`. */
export function libraryScanStore(dir: string): DiskCache<FolderScan> {
  return new DiskCache<FolderScan>(dir, 'libraries');
}

function scanFolder(folder: LibraryFolder): FolderScan {
  const scan: FolderScan = { libraries: [], files: [], warnings: [], folders: [folder.dir] };
  const entries = listEntries(folder.dir).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.') || !entry.isDir) continue;
    const dir = childPath(folder.dir, entry.name);
    scan.folders.push(dir);
    const library = readLibrary(dir, folder.location, scan);
    if (library) {
      scan.libraries.push(library);
      if (library.sourceDir !== dir) scan.folders.push(library.sourceDir);
    }
  }
  return scan;
}

export function readLibrary(dir: string, location: LibraryLocation, scan: LibraryScan): Library | undefined {
  const dirName = dir.split(/[\\/]/).pop() ?? dir;
  const propertiesFile = childPath(dir, 'library.properties');
  // One read of the folder says whether it has library.properties and src/, and (flat) its headers.
  const entries = listEntries(dir);
  const hasProperties = entries.some((entry) => entry.name === 'library.properties');
  const layout = hasProperties && entries.some((entry) => entry.name === 'src' && entry.isDir) ? 'recursive' : 'flat';
  const sourceDir = layout === 'recursive' ? childPath(dir, 'src') : dir;
  const headers = (layout === 'recursive' ? listDir(sourceDir) : entries.map((entry) => entry.name)).filter((file) => HEADER.test(file));
  if (!hasProperties) {
    // A legacy library is any folder with headers; anything else is not a library.
    if (headers.length === 0) return undefined;
    return { name: dirName, dirName, dir, layout, sourceDir, location, architectures: ['*'], depends: [], headers };
  }

  scan.files.push(propertiesFile);
  const { properties, warnings } = loadPropertiesFile(propertiesFile);
  scan.warnings.push(...warnings);
  const get = (key: string): string | undefined => properties.get(key) || undefined;
  const warn = (key: string, message: string): void => {
    const source = properties.source(key);
    scan.warnings.push({ severity: 'warning', code: 'library-properties', message: `${source ? `${source.file}:${source.line}` : propertiesFile}: ${message}`, file: source?.file ?? propertiesFile, line: source?.line });
  };
  for (const key of ['name', 'version']) if (!get(key)) warn(key, `missing "${key}"`);
  const dependsText = get('depends');
  const depends = dependsText ? parseDepends(dependsText) : undefined;
  if (depends && !depends.ok) warn('depends', `depends not understood: ${depends.error}`);
  const precompiled = get('precompiled');
  if (precompiled && !['true', 'full', 'false'].includes(precompiled)) warn('precompiled', `precompiled must be true, full or false, not "${precompiled}"`);
  const list = (text: string | undefined): string[] | undefined => text?.split(',').map((part) => part.trim()).filter(Boolean);
  return {
    name: get('name') ?? dirName,
    dirName,
    dir,
    layout,
    sourceDir,
    location,
    version: get('version'),
    author: get('author'),
    maintainer: get('maintainer'),
    sentence: get('sentence'),
    paragraph: get('paragraph'),
    category: get('category'),
    url: get('url'),
    architectures: list(get('architectures')) ?? ['*'],
    depends: depends?.dependencies ?? [],
    dependsLine: properties.source('depends')?.line,
    dotALinkage: get('dot_a_linkage') === 'true',
    includes: list(get('includes')),
    precompiled: precompiled as Library['precompiled'],
    ldflags: get('ldflags'),
    headers,
    source: { file: propertiesFile, line: properties.source('name')?.line },
  };
}

export function isCompatible(library: Library, architecture: string): boolean {
  return library.architectures.some((arch) => arch === '*' || arch === architecture);
}
