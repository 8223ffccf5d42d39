// FQBN → build properties, following arduino-cli's ResolveFQBN / Board.GetBuildProperties:
// board keys, chosen menu options, core/variant references into other vendors' platforms,
// platform layering and runtime keys.
import { dirname } from 'node:path';
import { join } from '../path-join.js';
import type { Finding, SourceRef } from '../finding.js';
import { describeChoices, formatFqbn, parseFqbn, type Fqbn } from './fqbn.js';
import type { BoardDefinition, PlatformRelease } from './platform-release.js';
import type { InstalledPlatforms, ToolRelease } from './platforms.js';
import { currentOsSuffix, expandReferences, Properties } from './properties.js';
import { compareVersions } from './version.js';
import { inOneCommandProcess } from '../one-command.js';

/** The IDE version arduino-cli reports to platforms (`runtime.ide.version`). */
export const CLI_IDE_VERSION = '10607';

export interface SelectedOption {
  /** Menu id (`cpu`) and its label (`Processor`). */
  option: string;
  optionLabel: string;
  value: string;
  valueLabel: string;
  /** True when the FQBN did not name it and the board's first option was taken. */
  isDefault: boolean;
}

export interface ResolvedBoard {
  /** Normalised FQBN: options equal to their default dropped. */
  fqbn: string;
  /** The FQBN as given (arduino-cli's `build.fqbn`). */
  requestedFqbn: string;
  vendor: string;
  architecture: string;
  boardId: string;
  name: string;
  /** Every menu of the board with the option in effect, in boards.txt order. */
  options: SelectedOption[];
  /** Build properties, unexpanded, as `arduino-cli board details --show-properties=unexpanded`. */
  properties: Map<string, string>;
  /** File:line each property was last set from (runtime keys have none). */
  sources: Map<string, SourceRef>;
  platformPath: string;
  corePlatformPath: string;
  corePath: string;
  /** Absent when the board names no variant. */
  variantPath?: string;
  platform: PlatformRelease;
  /** platform.txt's `name` and `version` (else the platform id and its folder's version). */
  platformName: string;
  platformVersion: string;
  /** The board's own definition (menus, labels) for listing choices. */
  board: BoardDefinition;
  /** Problems reading the platform files; never fatal. */
  warnings: Finding[];
  /** `{key}` expansion over the build properties plus `extra` (e.g. `serial.port`). */
  expand(text: string, extra?: Record<string, string>): string;
  /** A property with its `{}` references expanded. */
  expanded(key: string): string | undefined;
  /**
   * Expansion inside a tool's recipe: `tools.<tool>.*` keys are also visible without their
   * prefix (`{path}`, `{cmd.path}`), as arduino-cli does for upload and program recipes.
   */
  expandForTool(tool: string, text: string, extra?: Record<string, string>): string;
}

export class ResolveError extends Error {
  constructor(
    message: string,
    /** What was wrong: `fqbn`, `platform`, `board`, `option`, `value`, `reference`. */
    readonly kind: 'fqbn' | 'platform' | 'board' | 'option' | 'value' | 'reference',
    readonly choices: string[] = [],
  ) {
    super(message);
    this.name = 'ResolveError';
  }
}

/** Throws ResolveError with the valid choices and the nearest match when the FQBN does not fit. */
export function resolveFqbn(fqbnText: string, installed: InstalledPlatforms): ResolvedBoard {
  const parsed = parseFqbn(fqbnText);
  if (!parsed.ok) throw new ResolveError(parsed.error, 'fqbn');
  const fqbn = parsed.fqbn;
  const platform = findPlatform(fqbn, installed);
  const data = platform.load();
  const board = data.boards.get(fqbn.boardId);
  if (!board) {
    const ids = [...data.boards.keys()];
    throw new ResolveError(`${platform.id}: ${describeChoices('board', fqbn.boardId, ids)}`, 'board', ids);
  }

  const options = selectOptions(fqbn, board, data.menuLabels);
  const optionLayers = options.map((selected) => board.menuProperties.get(selected.option)?.get(selected.value) ?? new Properties());
  // Board keys as the chosen options leave them, without copying the board's keys.
  const boardValue = (key: string): string | undefined => {
    for (let index = optionLayers.length - 1; index >= 0; index--) {
      const value = optionLayers[index].get(key);
      if (value !== undefined) return value;
    }
    return board.properties.get(key);
  };
  const { core, corePlatform, variant, variantPlatform } = referencedPlatforms(boardValue, board, platform, fqbn, installed);
  // Platforms below the board, then the board: the same for every option of this board, so it
  // is layered once and copied (a stm32duino board carries thousands of menu keys); a process that
  // runs one command resolves the board once, and layers it for that once.
  const below = [installed.globalProperties.under, variantPlatform.load().properties, corePlatform.load().properties, data.properties];
  const build = inOneCommandProcess() ? layered(board, below) : baseLayers(board, below).clone();
  build.set('build.fqbn', formatFqbn(fqbn));
  build.set('build.arch', platform.architecture.toUpperCase());
  for (const layer of optionLayers) build.merge(layer);

  build.set('runtime.platform.path', platform.dir);
  build.set('runtime.hardware.path', dirname(platform.dir));
  build.set('build.board.platform.path', platform.dir);
  build.set('build.core.platform.path', corePlatform.dir);
  build.set('build.core.path', join(corePlatform.dir, 'cores', core));
  build.set('build.system.path', join(corePlatform.dir, 'system'));
  build.set('build.variant.path', variant ? join(variantPlatform.dir, 'variants', variant) : '');
  if (build.get('runtime.use_core_platform_path_for_runtime_platform_path') === 'true') {
    build.set('runtime.platform.path', corePlatform.dir);
  }
  addToolPaths(build, installed.tools, platform, corePlatform);
  build.set('runtime.os', currentOsSuffix());
  build.set('build.library_discovery_phase', '0');
  if (!build.get('build.board')) build.set('build.board', `${platform.architecture}_${board.id}`.toUpperCase());
  // arduino-cli overwrites this deprecated key unconditionally; arduino-builder (IDE 1.8) keeps a
  // platform's own value, which Debian's platform needs (tools.avrdude.path=/usr).
  if (!build.has('tools.avrdude.path')) build.set('tools.avrdude.path', '{runtime.tools.avrdude.path}');
  build.set('ide_version', CLI_IDE_VERSION);
  build.set('runtime.ide.version', CLI_IDE_VERSION);
  if (!build.has('software')) build.set('software', 'ARDUINO');
  build.merge(installed.globalProperties.over);

  const { values: properties, origins: sources } = build.release();
  const variantPath = variant ? join(variantPlatform.dir, 'variants', variant) : undefined;
  return withExpansion({
    fqbn: normalisedFqbn(fqbn, board),
    requestedFqbn: formatFqbn(fqbn),
    vendor: platform.vendor,
    architecture: platform.architecture,
    boardId: board.id,
    name: board.name,
    options,
    properties,
    sources,
    platformPath: platform.dir,
    corePlatformPath: corePlatform.dir,
    corePath: join(corePlatform.dir, 'cores', core),
    variantPath,
    platform,
    platformName: data.properties.get('name') ?? platform.id,
    platformVersion: data.properties.get('version') ?? platform.version,
    board,
    warnings: [...data.warnings],
  });
}

/**
 * Adds the expansion functions over the board's own properties map. The object is completed in
 * place, so a stored board's lazy `board` getter (board-cache.ts) is not read here.
 */
export function withExpansion(fields: Omit<ResolvedBoard, 'expand' | 'expanded' | 'expandForTool'>): ResolvedBoard {
  const { properties } = fields;
  const expand = (text: string, extra: Record<string, string> = {}): string =>
    expandReferences(text, (key) => (Object.hasOwn(extra, key) ? extra[key] : undefined) ?? properties.get(key));
  return Object.assign(fields, {
    expand,
    expanded: (key: string) => {
      const value = properties.get(key);
      return value === undefined ? undefined : expand(value);
    },
    expandForTool: (tool: string, text: string, extra: Record<string, string> = {}) => {
      const prefix = `tools.${tool}.`;
      return expandReferences(text, (key) => (Object.hasOwn(extra, key) ? extra[key] : undefined) ?? properties.get(prefix + key) ?? properties.get(key));
    },
  });
}

const layerCache = new WeakMap<BoardDefinition, Map<string, Properties>>();

function baseLayers(board: BoardDefinition, below: Properties[]): Properties {
  let cached = layerCache.get(board);
  if (!cached) layerCache.set(board, (cached = new Map()));
  // The layers below differ only when options switch the referenced core or variant platform.
  const key = below.map((layer) => layerId(layer)).join('|');
  let base = cached.get(key);
  if (!base) cached.set(key, (base = layered(board, below)));
  return base;
}

function layered(board: BoardDefinition, below: Properties[]): Properties {
  // An empty layer changes nothing, nor does a layer merged again right after itself (the variant's,
  // the core's and the board's platform are mostly one); the first layer merged into an empty map
  // is that layer in its order: copied natively, not key by key.
  const layers = [...below, board.properties].filter((layer, index, all) => layer.size > 0 && layer !== all[index - 1]);
  return layers.length === 0 ? new Properties() : layers[0].clone().merge(...layers.slice(1));
}

const layerIds = new WeakMap<Properties, number>();
let nextLayerId = 0;
function layerId(layer: Properties): number {
  let id = layerIds.get(layer);
  if (id === undefined) layerIds.set(layer, (id = nextLayerId++));
  return id;
}

function findPlatform(fqbn: Fqbn, installed: InstalledPlatforms): PlatformRelease {
  const platform = installed.platforms.get(`${fqbn.vendor}:${fqbn.architecture}`);
  if (platform) return platform;
  const ids = [...installed.platforms.keys()];
  const legacy = installed.legacy.find((entry) => entry.vendor === fqbn.vendor);
  if (legacy) throw new ResolveError(`Platform ${fqbn.vendor}:${fqbn.architecture} cannot be used: ${legacy.reason}`, 'platform', ids);
  const searched = installed.hardwareDirs.length > 0 ? ` Searched: ${installed.hardwareDirs.join(', ')}.` : ' No hardware folder was found.';
  throw new ResolveError(
    `${describeChoices('platform', `${fqbn.vendor}:${fqbn.architecture}`, ids)}.${searched} Install it with \`arduino-cli core install ${fqbn.vendor}:${fqbn.architecture}\` or the IDE's Boards Manager.`,
    'platform',
    ids,
  );
}

function selectOptions(fqbn: Fqbn, board: BoardDefinition, menuLabels: Properties): SelectedOption[] {
  for (const [option, value] of fqbn.options) {
    const values = board.menus.get(option);
    if (!values) {
      const menus = [...board.menus.keys()];
      throw new ResolveError(`${board.id}: ${describeChoices('option', option, menus)}`, 'option', menus);
    }
    if (!values.has(value)) {
      const choices = [...values.keys()];
      throw new ResolveError(`${board.id}, option ${option}: ${describeChoices('value', value, choices)}`, 'value', choices);
    }
  }
  const selected: SelectedOption[] = [];
  for (const [option, values] of board.menus) {
    const given = fqbn.options.get(option);
    const value = given ?? board.defaults.get(option) ?? '';
    selected.push({
      option,
      optionLabel: menuLabels.get(option) ?? option,
      value,
      valueLabel: values.get(value) ?? value,
      isDefault: given === undefined,
    });
  }
  return selected;
}

/**
 * The FQBN with every menu option written out (`arduino:avr:nano:cpu=atmega328`): arduino-cli
 * takes a menu's first option for one the FQBN leaves out, Debian's arduino-builder an empty value.
 */
export function fullFqbn(board: ResolvedBoard): string {
  return formatFqbn({ vendor: board.vendor, architecture: board.architecture, boardId: board.boardId, options: new Map(board.options.map((o) => [o.option, o.value])) });
}

function normalisedFqbn(fqbn: Fqbn, board: BoardDefinition): string {
  const kept = new Map<string, string>();
  for (const [option, value] of fqbn.options) {
    if (value !== board.defaults.get(option)) kept.set(option, value);
  }
  return formatFqbn({ ...fqbn, options: kept });
}

function referencedPlatforms(boardValue: (key: string) => string | undefined, board: BoardDefinition, platform: PlatformRelease, fqbn: Fqbn, installed: InstalledPlatforms) {
  const split = (key: string): [string, string] => {
    const value = expandReferences(boardValue(key) ?? '', boardValue);
    const colon = value.indexOf(':');
    return colon < 0 ? ['', value] : [value.slice(0, colon), value.slice(colon + 1)];
  };
  const [coreVendor, core] = split('build.core');
  const [variantVendor, variant] = split('build.variant');
  if (coreVendor && variantVendor && coreVendor !== variantVendor) {
    throw new ResolveError(
      `${formatFqbn(fqbn)}: build.core and build.variant refer to different platforms (${coreVendor}:${core} and ${variantVendor}:${variant})`,
      'reference',
    );
  }
  const referredVendor = coreVendor || variantVendor;
  let referred: PlatformRelease | undefined;
  if (referredVendor) {
    referred = installed.platforms.get(`${referredVendor}:${platform.architecture}`);
    if (!referred) {
      const source = board.properties.source(coreVendor ? 'build.core' : 'build.variant');
      const where = source ? ` (${source.file}:${source.line})` : '';
      throw new ResolveError(
        `${formatFqbn(fqbn)} refers to platform ${referredVendor}:${platform.architecture}${where}, which is not installed. Install it with \`arduino-cli core install ${referredVendor}:${platform.architecture}\`.`,
        'reference',
      );
    }
  }
  return {
    core,
    corePlatform: coreVendor && referred ? referred : platform,
    variant,
    variantPlatform: variantVendor && referred ? referred : platform,
  };
}

// runtime.tools.<name>.path for the best release of every installed tool, and
// runtime.tools.<name>-<version>.path for each release (FindToolsRequiredForBuild's ranking:
// the board platform's vendor, then the core platform's, then the higher version).
function addToolPaths(build: Properties, tools: ToolRelease[], platform: PlatformRelease, corePlatform: PlatformRelease): void {
  const priority = (tool: ToolRelease): number => (tool.vendor === platform.vendor ? 2 : tool.vendor === corePlatform.vendor ? 1 : 0);
  const best = new Map<string, ToolRelease>();
  for (const tool of tools) {
    build.set(`runtime.tools.${tool.name}-${tool.version}.path`, tool.dir);
    const current = best.get(tool.name);
    if (
      !current ||
      priority(tool) > priority(current) ||
      (priority(tool) === priority(current) && compareVersions(tool.version, current.version) > 0)
    ) {
      best.set(tool.name, tool);
    }
  }
  for (const [name, tool] of best) build.set(`runtime.tools.${name}.path`, tool.dir);
}
