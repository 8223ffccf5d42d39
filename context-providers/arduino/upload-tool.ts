// The properties an upload (or bootloader/program) recipe is expanded with, assembled the way
// arduino-cli's upload command does: the tool is `<action>.tool.<protocol>`, else
// `<action>.tool.default`, else `<action>.tool`; a `vendor:tool` reference takes the tool from
// that vendor's platform of the same architecture; the tool's `tools.<id>.` keys are then
// visible without their prefix.
import type { InstalledPlatforms } from '../../platform/arduino/platforms.js';
import type { PlatformRelease } from '../../platform/arduino/platform-release.js';
import { Properties } from '../../platform/arduino/properties.js';
import { ResolveError, type ResolvedBoard } from '../../platform/arduino/resolve.js';

export interface ToolRecipeProperties {
  /** The tool id without a vendor (`avrdude`). */
  toolId: string;
  /** The reference as the board gives it (`arduino:avrdude`) and the key it came from (`upload.tool.default`). */
  reference: string;
  key: string;
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
  const key = [`${action}.tool.${protocol}`, `${action}.tool.default`, `${action}.tool`].find((candidate) => get(candidate));
  const reference = key ? get(key) : undefined;
  if (!key || !reference) {
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
  const toolKeys = platform.load().properties;
  for (const [name, value] of board.properties) {
    if (platform !== board.platform && toolKeys.has(name) && isBeneathPlatforms(name, board, installed)) continue;
    merged.set(name, value);
  }
  set(merged.subTree(`tools.${toolId}`).entries());
  return { toolId, reference, key, platform, properties: new Map(merged.entries()) };
}

// A `tools.` key the board has only from beneath every platform does not hide the referenced
// platform's own definition of its tool, as the IDE 1.8 uploader (Debian's) lays the tool over
// the board: a global platform.txt that arduino-builder merges under platforms (Debian's says
// tools.avrdude.path={runtime.tools.avrdude.path}) or resolveFqbn's deprecated default, against
// Debian's arduino:avr tools.avrdude.path=/usr. Upstream platforms give both the same value.
function isBeneathPlatforms(name: string, board: ResolvedBoard, installed: InstalledPlatforms): boolean {
  if (!name.startsWith('tools.')) return false;
  const source = board.sources.get(name);
  if (!source) return true;
  const under = installed.globalProperties.under.source(name);
  return under !== undefined && under.file === source.file && under.line === source.line;
}
