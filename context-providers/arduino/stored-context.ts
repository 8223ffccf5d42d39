// How a built Arduino context is found again: the keys it is kept under (in memory and on disk)
// and the read of the stored one. The provider stores contexts through these; the command line's
// stored-context path (bridge/cli/stored-context.ts) reads them without loading the provider, so
// a `boardbridge context` on an unchanged sketch loads only this, the stamp check and the printer.
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DetectedProject, HardwareContext, Selection } from '../types.js';
import { DIRECTORY_VARIABLES } from '../../platform/arduino/directories.js';
import type { DiscoverOptions } from '../../platform/arduino/platforms.js';
import { DiskCache } from './disk-cache.js';
import { boardbridgeCacheDir } from '../../platform/system-paths.js';
import { sketchMainFile } from './sketch-main.js';

/** The folder of DiskCache that holds built contexts. */
export const CONTEXTS_FOLDER = 'contexts';

/**
 * What is kept of a built context: the context, and its markdown as the provider rendered it, so a
 * stored context is printed without rendering it again (the renderer's code, run cold, was a third
 * of a stored context's own time).
 */
export interface StoredContext {
  context: HardwareContext;
  markdown: string;
}

/** The contexts kept in the cache folder `dir`. */
export function storedContexts(dir: string): DiskCache<StoredContext> {
  return new DiskCache<StoredContext>(dir, CONTEXTS_FOLDER);
}

/** A stored value of the shape StoredContext (an entry that is not is a miss). */
export function isStoredContext(value: unknown): value is StoredContext {
  const stored = value as Partial<StoredContext> | null;
  return typeof stored === 'object' && stored !== null && typeof stored.context === 'object' && stored.context !== null && typeof stored.markdown === 'string';
}

/** The command line's provider: it keeps its contexts in the cache folder, unless $BOARDBRIDGE_NO_CACHE. */
export function cliProviderOptions(): DiscoverOptions & { cacheDir?: string } {
  return { cacheDir: process.env.BOARDBRIDGE_NO_CACHE ? undefined : boardbridgeCacheDir() };
}

/** A sketch folder (<name>/<name>.ino or .pde), or the folder of a file given: the Arduino provider's detect. */
export function detectSketch(root: string): DetectedProject | undefined {
  let dir = root;
  try {
    if (statSync(root).isFile()) dir = dirname(root);
  } catch {
    return undefined;
  }
  const main = sketchMainFile(dir);
  return main ? { kind: 'arduino', root: dir, main } : undefined;
}

/** What else decides a context beyond the sketch and selection: where platforms are looked for. */
export function cacheEnvironment(options: DiscoverOptions): string {
  return JSON.stringify([options.dataDirs, options.sketchbookDirs, options.includeDebian, options.hardwareDirs, options.builtinLibraryDirs, options.home, options.os, ...DIRECTORY_VARIABLES.map((name) => process.env[name])]);
}

/**
 * The in-memory key of a project's context under a selection; `ideDigest` is the SHA-1 of
 * selection.arduinoIde (the provider's, which loads node:crypto only where an IDE sent its state).
 */
export function contextKey(project: DetectedProject, selection: Selection, ideDigest: string | null): string {
  return JSON.stringify([project.root, project.main ?? null, selection.board ?? null, ideDigest]);
}

/**
 * The on-disk key of the same context, or undefined when it is not kept on disk: a context with
 * a build's sizes in it is only as fresh as that build.
 */
export function storedContextKey(options: DiscoverOptions & { buildSize?: unknown }, project: DetectedProject, selection: Selection, ideDigest: string | null): string | undefined {
  if (options.buildSize || selection.arduinoIde?.lastCompile) return undefined;
  return `${cacheEnvironment(options)}\0${contextKey(project, selection, ideDigest)}`;
}

/**
 * The context a provider made with `options` stored for a project and a selection from no IDE,
 * when none of the files it was built from changed; `kept` says whether one was stored at all
 * (an edited sketch's is, but out of date).
 */
export function readStoredContext(options: DiscoverOptions & { cacheDir?: string }, project: DetectedProject, selection: Omit<Selection, 'arduinoIde'>): { stored?: StoredContext; kept: boolean } {
  const key = options.cacheDir ? storedContextKey(options, project, selection, null) : undefined;
  if (!key) return { kept: false };
  const store = storedContexts(options.cacheDir!);
  const stored = store.get(key)?.value;
  return isStoredContext(stored) ? { stored, kept: true } : { kept: store.has(key) };
}
