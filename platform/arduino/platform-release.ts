// One installed platform folder (`hardware/<vendor>/<arch>[/<version>]`): its boards, menus and
// platform properties, read lazily on first use and shaped the way arduino-cli's loader does.
import type { Finding } from '../finding.js';
import { loadGroupedWithLocal, loadPropertiesFile, loadWithLocal, Properties, type FirstLevelGroups, type OsSuffix } from './properties.js';

export interface BoardDefinition {
  id: string;
  name: string;
  /** boards.txt (+ boards.local.txt) keys of this board, id prefix removed, legacy keys converted. */
  properties: Properties;
  /** Menu id → its options (value id → label), in boards.txt order; the first is the default. */
  menus: Map<string, Map<string, string>>;
  /** Menu id → option value → the option's sub-keys (each made the first time it is asked for). */
  menuProperties: Map<string, { get(value: string): Properties | undefined }>;
  /** Menu id → its default: the first option listed that is visible on this OS. */
  defaults: Map<string, string>;
}

/** Boards in boards.txt order; each is shaped (legacy keys converted, menus indexed) on first use. */
export interface BoardTable {
  readonly size: number;
  has(id: string): boolean;
  get(id: string): BoardDefinition | undefined;
  keys(): IterableIterator<string>;
  values(): IterableIterator<BoardDefinition>;
}

export interface PlatformData {
  /** platform.txt + platform.local.txt, with arduino-cli's load-time additions. */
  properties: Properties;
  boards: BoardTable;
  /** `menu.<id>=<label>` from boards.txt. */
  menuLabels: Properties;
  programmers: Map<string, Properties>;
  warnings: Finding[];
}

export class PlatformRelease {
  private data?: PlatformData;

  constructor(
    readonly vendor: string,
    readonly architecture: string,
    /** Version folder name, or platform.txt `version` for the flat layout. */
    readonly version: string,
    readonly dir: string,
    /** Installed by the Boards Manager (data dir); preferred over sketchbook copies like arduino-cli. */
    readonly managed: boolean,
    private readonly os?: OsSuffix,
  ) {}

  get id(): string {
    return `${this.vendor}:${this.architecture}`;
  }

  /** Parses the platform's files the first time it is asked, then keeps them. */
  load(): PlatformData {
    this.data ??= readPlatform(this.dir, this.os);
    return this.data;
  }

  /** Files this platform was read from (for cache invalidation and provenance). */
  files(): string[] {
    return ['boards.txt', 'boards.local.txt', 'platform.txt', 'platform.local.txt', 'programmers.txt'].map(
      (name) => `${this.dir}/${name}`,
    );
  }
}

function readPlatform(dir: string, os?: OsSuffix): PlatformData {
  const platform = loadWithLocal(dir, 'platform', os);
  const boardsFile = loadGroupedWithLocal(dir, 'boards', os);
  const programmersFile = loadPropertiesFile(`${dir}/programmers.txt`, os);
  const properties = platform.properties;

  const pluggableAware =
    properties.subTree('pluggable_discovery').size > 0 || properties.subTree('pluggable_monitor').size > 0;
  if (!pluggableAware) {
    // Platforms written before pluggable discovery get these defaults at load time (loader.go).
    properties.set('pluggable_discovery.required.0', 'builtin:serial-discovery');
    properties.set('pluggable_discovery.required.1', 'builtin:mdns-discovery');
    properties.set('pluggable_monitor.required.serial', 'builtin:serial-monitor');
  }

  const programmers = new Map<string, Properties>();
  for (const [id, props] of programmersFile.properties.firstLevelOf()) {
    if (!pluggableAware) convertUploadTools(props);
    programmers.set(id, props);
  }

  const grouped = boardsFile.groups;
  const menuLabels = grouped.get('menu') ?? new Properties();
  grouped.delete('menu');
  const networkTools = pluggableAware ? new Map<string, string>() : convertNetworkPatterns(properties);
  const boards = lazyBoards(grouped, (id, props) => {
    if (!pluggableAware) {
      convertVidPid(props);
      convertUploadTools(props);
    }
    convertSerialRtsDtr(props);
    props.set('_id', id);
    addNetworkUpload(id, props, networkTools);
    return buildBoard(id, props);
  });

  return {
    properties,
    boards,
    menuLabels,
    programmers,
    warnings: [...platform.warnings, ...boardsFile.warnings, ...programmersFile.warnings],
  };
}

/** A menu's options in the order their keys first appear: each option's label, if it has one, and its sub-keys' full keys and values. */
type MenuOptions = Map<string, { label?: string; keys: Array<[key: string, value: string]> }>;

function buildBoard(id: string, properties: Properties): BoardDefinition {
  // One pass over the board's keys (an STM32 board has a thousand, most of them its menus'):
  // menu.<menu>.<option> is an option's label, menu.<menu>.<option>.<key> one of its sub-keys.
  // Menus and options come in the order their first key does, as in boards.txt.
  const found = new Map<string, MenuOptions>();
  properties.forEach((value, key) => {
    if (!key.startsWith('menu.')) return;
    const menuEnd = key.indexOf('.', 5);
    if (menuEnd < 0) return;
    const menuId = key.slice(5, menuEnd);
    const optionEnd = key.indexOf('.', menuEnd + 1);
    const option = optionEnd < 0 ? key.slice(menuEnd + 1) : key.slice(menuEnd + 1, optionEnd);
    let options = found.get(menuId);
    if (!options) found.set(menuId, (options = new Map()));
    let entry = options.get(option);
    if (!entry) options.set(option, (entry = { keys: [] }));
    if (optionEnd < 0) entry.label = value;
    else entry.keys.push([key, value]);
  });
  const menus = new Map<string, Map<string, string>>();
  const menuProperties: BoardDefinition['menuProperties'] = new Map();
  const defaults = new Map<string, string>();
  for (const [menuId, options] of found) {
    const labels = new Map<string, string>();
    // An option without a label is hidden (esp8266/ESP32 hide options per OS this way).
    for (const [option, entry] of options) if (entry.label !== undefined) labels.set(option, entry.label);
    // arduino-cli takes the first key even when it is hidden here, and then refuses its own
    // default (esp8266's eduinowifi on Linux); the IDE offers the first visible option, as we do.
    const firstVisible = labels.keys().next().value;
    if (firstVisible === undefined) continue;
    // A menu can have a hundred options (an STM32 board's pnum) and a board uses one of each menu:
    // an option's sub-keys are made when they are asked for.
    const made = new Map<string, Properties>();
    const subKeys = {
      get: (value: string): Properties | undefined => {
        if (!labels.has(value)) return undefined;
        let sub = made.get(value);
        if (!sub) {
          made.set(value, (sub = new Properties()));
          const prefix = `menu.${menuId}.${value}.`.length;
          for (const [key, keyValue] of options.get(value)!.keys) sub.set(key.slice(prefix), keyValue, properties.source(key));
        }
        return sub;
      },
    };
    defaults.set(menuId, firstVisible);
    menus.set(menuId, labels);
    menuProperties.set(menuId, subKeys);
  }
  return { id, name: properties.get('name') ?? id, properties, menus, menuProperties, defaults };
}

// xxx.vid.N / xxx.pid.N → upload_port.N.vid / .pid, for pre-pluggable-discovery platforms.
function convertVidPid(props: Properties): void {
  let n = 0;
  const add = (vid: string, pid: string): void => {
    props.set(`upload_port.${n}.vid`, vid, props.source(`vid`));
    props.set(`upload_port.${n}.pid`, pid, props.source(`pid`));
    n++;
  };
  const vid = props.get('vid');
  const pid = props.get('pid');
  if (vid !== undefined && pid !== undefined) add(vid, pid);
  // A board has thousands of keys (its menu options'): one cheap test each before the pattern. Its
  // vid.N keys are taken first: add() sets keys of the same map.
  const numbered: string[] = [];
  props.forEach((_value, key) => {
    if (key.startsWith('vid.')) numbered.push(key);
  });
  for (const key of numbered) {
    const match = /^vid\.(\d+)$/.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    const v = props.get(`vid.${index}`);
    const p = props.get(`pid.${index}`);
    if (v !== undefined && p !== undefined) add(v, p);
  }
}

// upload.tool → upload.tool.default (also for bootloader and program, and per menu option).
const TOOL_ACTIONS = ['upload.tool', 'bootloader.tool', 'program.tool'];

function convertUploadTools(props: Properties): void {
  const pending = TOOL_ACTIONS.filter((action) => !props.has(`${action}.default`));
  if (pending.length === 0) return;
  // One pass over the board's keys (thousands, with its menu options) finds menu.<menu>.<option>.<action>.
  const inMenus = new Map<string, Array<[string, string]>>(pending.map((action) => [action, []]));
  props.forEach((value, key) => {
    if (!key.startsWith('menu.') || !key.endsWith('.tool')) return;
    const parts = key.split('.');
    if (parts.length === 5) inMenus.get(`${parts[3]}.${parts[4]}`)?.push([key, value]);
  });
  const additions = new Properties();
  for (const action of pending) {
    for (const [key, value] of inMenus.get(action)!) additions.set(`${key.slice(0, -action.length)}${action}.default`, value, props.source(key));
    const tool = props.get(action);
    if (tool !== undefined) additions.set(`${action}.default`, tool, props.source(action));
  }
  props.merge(additions);
}

// serial.disableDTR/RTS → monitor_port.serial.dtr/rts = off|on (also inside menu options).
const SERIAL_LINES = [
  ['serial.disableDTR', 'monitor_port.serial.dtr'],
  ['serial.disableRTS', 'monitor_port.serial.rts'],
] as const;

function convertSerialRtsDtr(props: Properties): void {
  const onOff = (key: string): string => (props.get(key) === 'true' ? 'off' : 'on');
  for (const [legacy, modern] of SERIAL_LINES) {
    if (props.has(legacy)) props.set(modern, onOff(legacy), props.source(legacy));
  }
  // A board has thousands of keys (its menu options'): one cheap test each before the suffixes.
  const lines: string[] = [];
  props.forEach((_value, key) => {
    if (key.endsWith('DTR') || key.endsWith('RTS')) lines.push(key);
  });
  for (const key of lines) {
    for (const [legacy, modern] of SERIAL_LINES) {
      if (key.length > legacy.length && key.endsWith(legacy) && key[key.length - legacy.length - 1] === '.') {
        props.set(key.slice(0, -legacy.length) + modern, onOff(key), props.source(key));
      }
    }
  }
}

// tools.X.upload.network_pattern → a pluggable tool "X__pluggable_network" (loader.go).
// Returns tool name → converted tool name, for the boards that upload with that tool.
function convertNetworkPatterns(properties: Properties): Map<string, string> {
  const converted = new Map<string, string>();
  for (const [toolName, toolProps] of properties.subTree('tools').firstLevelOf()) {
    let pattern = toolProps.get('upload.network_pattern');
    if (pattern === undefined) continue;
    const name = `${toolName}__pluggable_network`;
    toolProps.delete('upload.network_pattern');
    pattern = pattern.replaceAll('{serial.port}', '{upload.port.address}').replaceAll('{network.port}', '{upload.port.properties.port}');
    if (pattern.includes('{network.password}')) {
      toolProps.set('upload.field.password', 'Password');
      toolProps.set('upload.field.password.secret', 'true');
      pattern = pattern.replaceAll('{network.password}', '{upload.field.password}');
    }
    pattern = pattern.replace(/\{upload\.network\.([^}]+)\}/g, '{upload.port.properties.$1}');
    toolProps.set('upload.pattern', pattern);
    for (const [key, value] of toolProps.entries()) properties.set(`tools.${name}.${key}`, value);
    converted.set(toolName, name);
  }
  return converted;
}

function addNetworkUpload(id: string, props: Properties, networkTools: Map<string, string>): void {
  const converted = networkTools.get(props.get('upload.tool') ?? '');
  if (!converted || props.has('upload.tool.network')) return;
  props.set('upload.tool.network', converted);
  let index = 0;
  while (props.has(`upload_port.${index}.vid`)) index++;
  props.set(`upload_port.${index}.board`, id);
}

function lazyBoards(raw: FirstLevelGroups, prepare: (id: string, props: Properties) => BoardDefinition): BoardTable {
  const built = new Map<string, BoardDefinition>();
  const get = (id: string): BoardDefinition | undefined => {
    const props = raw.get(id);
    if (!props) return undefined;
    let board = built.get(id);
    if (!board) built.set(id, (board = prepare(id, props)));
    return board;
  };
  return {
    size: raw.size,
    has: (id) => raw.has(id),
    get,
    keys: () => raw.keys(),
    *values() {
      for (const id of raw.keys()) yield get(id)!;
    },
  };
}
