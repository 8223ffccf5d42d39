// The platform's own upload command: `tools.<tool>.upload.pattern` from platform.txt. The tool
// and its keys come from the Arduino context provider's resolveUploadTool, the one place that
// follows arduino-cli (`upload.tool.<protocol>`, `.default`, `upload.tool`; a `vendor:tool`
// reference takes the tool from that vendor's platform of the same architecture), so the
// command run is the one the agent's board context describes. It is expanded with the runtime
// keys arduino-cli sets (serial.port, upload.verbose, upload.verify, build.path …).
import { basename } from 'node:path';
import { join } from '../../platform/path-join.js';
import type { InstalledPlatforms } from '../../platform/arduino/platforms.js';
import { expandReferences } from '../../platform/arduino/properties.js';
import type { ResolvedBoard } from '../../platform/arduino/resolve.js';
import type { SourceRef } from '../../platform/finding.js';
import { resolveUploadTool, type ToolRecipeProperties } from '../../context-providers/arduino/upload-tool.js';
// The recipe splitter the context provider uses for compile recipes: quotes group, as arduino-cli splits.
import { splitCommandLine } from '../../context-providers/arduino/compile-flags.js';

export interface RecipeInput {
  /** The board as the Arduino context provider resolves it (`resolveFqbn`). */
  board: ResolvedBoard;
  /** The platforms it was resolved among: a `vendor:tool` reference is looked up there. */
  installed: InstalledPlatforms;
  port: string;
  buildPath: string;
  /** The sketch name: the image is `<buildPath>/<sketchName>.ino.hex`. */
  sketchName: string;
  verify: boolean;
  verbose: boolean;
}

export interface UploadRecipe {
  /** The tool id without a vendor (`avrdude`). */
  tool: string;
  /** The platform whose platform.txt defines the tool (`arduino:avr` for `arduino:avrdude`). */
  toolPlatform: string;
  argv: string[];
  use1200bpsTouch: boolean;
  waitForUploadPort: boolean;
}

export function uploadRecipe(input: RecipeInput): UploadRecipe {
  const { board } = input;
  const tool = resolveUploadTool(board, input.installed, { action: 'upload', protocol: 'serial' });
  const properties = tool.properties;
  const pattern = properties.get('upload.pattern');
  if (!pattern) throw new Error(missingPattern(board, tool));
  const runtime: Record<string, string> = {
    'serial.port': input.port,
    'serial.port.file': basename(input.port),
    'upload.port.address': input.port,
    'upload.port.protocol': 'serial',
    'build.path': input.buildPath,
    'build.project_name': `${input.sketchName}.ino`,
    'upload.verbose': properties.get(input.verbose ? 'upload.params.verbose' : 'upload.params.quiet') ?? '',
    'upload.verify': properties.get(input.verify ? 'upload.params.verify' : 'upload.params.noverify') ?? '',
  };
  const lookup = (key: string): string | undefined => runtime[key] ?? properties.get(key);
  const expanded = expandReferences(pattern, lookup);
  const unresolved = [...new Set([...expanded.matchAll(/\{([^{}\s]+)\}/g)].map((match) => match[1]))];
  if (unresolved.length > 0) throw new Error(unresolvedReferences(board, tool, unresolved));
  return {
    tool: tool.toolId,
    toolPlatform: tool.platform.id,
    argv: splitCommandLine(expanded),
    use1200bpsTouch: properties.get('upload.use_1200bps_touch') === 'true',
    waitForUploadPort: properties.get('upload.wait_for_upload_port') === 'true',
  };
}

function cite(source: SourceRef | undefined): string {
  return source ? ` (${source.file}${source.line ? `:${source.line}` : ''})` : '';
}

/** The platform.txt files the tool's keys were looked for in: the tool's platform, then the board's. */
function searchedFiles(board: ResolvedBoard, tool: ToolRecipeProperties): string[] {
  const dirs = tool.platform === board.platform ? [board.platform.dir] : [tool.platform.dir, board.platform.dir];
  return dirs.map((dir) => join(dir, 'platform.txt'));
}

// The key as boards.txt spells it: loading converts a plain `upload.tool` to `upload.tool.default`.
function writtenKey(board: ResolvedBoard, key: string): string {
  const plain = key.replace(/\.default$/, '');
  const converted = board.sources.get(key);
  const written = board.sources.get(plain);
  const same = converted && written && converted.file === written.file && converted.line === written.line;
  return same && board.properties.get(plain) === board.properties.get(key) ? plain : key;
}

function missingPattern(board: ResolvedBoard, tool: ToolRecipeProperties): string {
  const key = writtenKey(board, tool.key);
  const defined = [...tool.properties.keys()]
    .map((name) => /^tools\.([^.]+)\.upload\.pattern$/.exec(name)?.[1])
    .filter((name): name is string => name !== undefined);
  const offered = defined.length > 0 ? `Tools with an upload pattern there: ${defined.join(', ')}. ` : 'No tool there has an upload pattern. ';
  const vendorHint = tool.reference.includes(':')
    ? `install a release of ${tool.platform.id} that provides "${tool.toolId}"`
    : `if the tool belongs to another vendor's platform, name it as VENDOR:${tool.toolId}`;
  return (
    `${board.fqbn}: ${key}=${tool.reference}${cite(board.sources.get(tool.key))} names tool "${tool.toolId}", but no ` +
    `tools.${tool.toolId}.upload.pattern is defined in ${searchedFiles(board, tool).join(' or ')} (nor in boards.txt). ` +
    `${offered}Check the board's ${key}, or ${vendorHint}.`
  );
}

function unresolvedReferences(board: ResolvedBoard, tool: ToolRecipeProperties, keys: string[]): string {
  const patternKey = `tools.${tool.toolId}.upload.pattern`;
  const from = cite(board.sources.get(patternKey) ?? tool.platform.load().properties.source(patternKey));
  const missingTools = keys.map((key) => /^runtime\.tools\.([^.]+)\.path$/.exec(key)?.[1]).filter((name): name is string => name !== undefined);
  const hint =
    missingTools.length > 0
      ? `the tool ${missingTools.join(', ')} is not installed where arduino-cli keeps tools (<data dir>/packages/<vendor>/tools/); ` +
        `install it with \`arduino-cli core install ${tool.platform.id}\` or the IDE's Boards Manager`
      : `define them in the board (boards.txt) or platform (${searchedFiles(board, tool).join(', ')})`;
  return (
    `${board.fqbn}: ${patternKey}${from} still refers to ${keys.map((key) => `{${key}}`).join(', ')} after expansion; ${hint}.`
  );
}
