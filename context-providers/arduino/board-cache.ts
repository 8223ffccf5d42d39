// Resolved boards kept on disk between processes, keyed by the FQBN and not by the sketch: after
// a sketch edit the context is rebuilt, but the platform's boards.txt (2.9 MB for arduino-pico)
// is not parsed again. A board depends on the files of every installed platform (core and variant
// may come from another vendor's), the discovery's own inputs (arduino-cli.yaml, global
// platform.txt) and which platforms and tools discovery found; all three are checked on use.
import type { SourceRef } from '../types.js';
import { DiskCache } from './disk-cache.js';
import type { InstalledPlatforms } from '../../platform/arduino/platforms.js';
import { withExpansion, type ResolvedBoard } from '../../platform/arduino/resolve.js';

// The board's data, without the live objects (its platform, definition and expansion functions).
type StoredBoard = Omit<ResolvedBoard, 'properties' | 'sources' | 'platform' | 'board' | 'expand' | 'expanded' | 'expandForTool'> & {
  discovery: string;
  platformId: string;
  properties: Array<[string, string]>;
  sources: Array<[string, SourceRef]>;
};

// What discovery found that resolution reads besides files: the release chosen per platform and the
// tools. Stored as it is (a few kB), not hashed: node:crypto would cost a cold command 4 ms to load.
function discoverySignature(installed: InstalledPlatforms): string {
  const platforms = [...installed.platforms.values()].map((platform) => [platform.id, platform.dir, platform.version, platform.managed]);
  return JSON.stringify([platforms, installed.tools, installed.inputs, installed.hardwareDirs]);
}

function inputsOf(installed: InstalledPlatforms): string[] {
  return [...installed.inputs, ...[...installed.platforms.values()].flatMap((platform) => platform.files())];
}

export class BoardCache {
  private readonly disk: DiskCache<StoredBoard>;

  constructor(dir: string) {
    this.disk = new DiskCache<StoredBoard>(dir, 'boards');
  }

  /** The board as resolveFqbn(key's FQBN, installed) would return it, when nothing it was built from changed. */
  get(key: string, installed: InstalledPlatforms): ResolvedBoard | undefined {
    const stored = this.disk.get(key)?.value;
    if (!stored || stored.discovery !== discoverySignature(installed)) return undefined;
    const platform = installed.platforms.get(stored.platformId);
    if (!platform || platform.dir !== stored.platformPath) return undefined;
    const { discovery: _, platformId: __, properties, sources, ...fields } = stored;
    const board = withExpansion({
      ...fields,
      properties: new Map(properties),
      sources: new Map(sources),
      platform,
      // The definition (menus, labels) is only read to list choices: parse the platform then.
      board: undefined as never,
    });
    Object.defineProperty(board, 'board', { enumerable: true, get: () => platform.load().boards.get(stored.boardId)! });
    return board;
  }

  /** Stores a board fresh from resolveFqbn, before anything (IDE properties) changes it. */
  set(key: string, board: ResolvedBoard, installed: InstalledPlatforms): void {
    const stored: StoredBoard = {
      discovery: discoverySignature(installed),
      fqbn: board.fqbn,
      requestedFqbn: board.requestedFqbn,
      vendor: board.vendor,
      architecture: board.architecture,
      boardId: board.boardId,
      name: board.name,
      options: board.options,
      properties: [...board.properties],
      sources: [...board.sources],
      platformId: board.platform.id,
      platformPath: board.platformPath,
      corePlatformPath: board.corePlatformPath,
      corePath: board.corePath,
      ...(board.variantPath !== undefined ? { variantPath: board.variantPath } : {}),
      platformName: board.platformName,
      platformVersion: board.platformVersion,
      warnings: board.warnings,
    };
    this.disk.set(key, stored, inputsOf(installed));
  }
}
