// The properties an upload (or bootloader/program) recipe is expanded with, assembled the way
// arduino-cli's upload command does: the tool is `<action>.tool.<protocol>`, else
// `<action>.tool.default`, else `<action>.tool`; a `vendor:tool` reference takes the tool from
// that vendor's platform of the same architecture; the tool's `tools.<id>.` keys are then
// visible without their prefix.
import type { InstalledPlatforms } from './platforms.js';
import type { PlatformRelease } from './platform-release.js';
import { Properties } from './properties.js';
import { ResolveError, type ResolvedBoard } from './resolve.js';

export interface ToolRecipeProperties {
  /** The tool id without a vendor (`avrdude`). */
  toolId: string;
  /** The platform whose platform.txt defines the tool. */
  platform: PlatformRelease;
  /** Unexpanded; expand with `expandReferences(pattern, key => extra[key] ?? properties.get(key))`. */
  properties: Map<string, string>;
}

export function resolveUploadTool(
  board: ResolvedBoard,
  installed: InstalledPlatforms,
  options: { action?: 'upload' | 'bootloader' | 'program'; protocol?: string } = {},
): ToolRecipeProperties {
  const action = options.action ?? 'upload';
  const protocol = options.protocol ?? 'serial';
  const get = (key: string): string | undefined => board.properties.get(key);
  const reference = get(`${action}.tool.${protocol}`) ?? get(`${action}.tool.default`) ?? get(`${action}.tool`);
  if (!reference) {
    throw new ResolveError(`${board.fqbn} defines no ${action}.tool (nor ${action}.tool.${protocol} / .default), so it cannot ${action} over ${protocol}`, 'reference');
  }
  const parts = reference.split(':');
  if (parts.length > 2) throw new ResolveError(`${board.fqbn}: ${action}.tool=${reference} is not TOOL or VENDOR:TOOL`, 'reference');
  let platform = board.platform;
  if (parts.length === 2) {
    const referenced = installed.platforms.get(`${parts[0]}:${board.architecture}`);
    if (!referenced) {
      throw new ResolveError(`${board.fqbn}: ${action}.tool=${reference} needs platform ${parts[0]}:${board.architecture}, which is not installed (arduino-cli core install ${parts[0]}:${board.architecture})`, 'reference');
    }
    platform = referenced;
  }
  const toolId = parts[parts.length - 1];

  const merged = new Properties();
  const set = (entries: Iterable<[string, string]>): void => {
    for (const [key, value] of entries) merged.set(key, value);
  };
  set(platform.load().properties.entries());
  set(board.platform.load().properties.entries());
  merged.set('runtime.platform.path', platform.dir);
  set(board.properties.entries());
  set(merged.subTree(`tools.${toolId}`).entries());
  return { toolId, platform, properties: new Map(merged.entries()) };
}
