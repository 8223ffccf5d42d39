// What a library's own header says about the pins its objects take: the classes it declares with
// their constructors and the members that hand a board pin to the library (`attach`, `begin`,
// `addLeds<…>`, `setSDA` …), each overload's parameters (and template parameters) by name, the
// objects it declares `extern` (`extern TwoWire Wire;`), its class templates and enums. Read from
// the preprocessed tokens under the board's macros, so an inactive `#if` branch declares nothing.
// A parameter is a pin when the declaration names it so (`pin`, `receivePin`, `sda`, `DATA_PIN`,
// LiquidCrystal's `rs`/`enable`/`d4`); what it means is the library's word, not a table of ours.
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Token } from './c-tokens.js';
import { tokenize } from './c-tokens.js';
import { preprocess, type Macro } from './preprocessor.js';

export type PinRole = 'drive' | 'read';

export interface DeclaredParam {
  name: string;
  /** The parameter's type as written (`uint8_t`, `ESPIChipsets`); for a template parameter, `template` or `class`. */
  type: string;
  hasDefault: boolean;
  /** A template template parameter's own parameter types (`template<uint8_t DATA_PIN> class CHIPSET` → uint8_t). */
  inner?: string[];
  /** Set when the name says the parameter is a board pin. */
  pin?: PinRole;
}

export interface DeclaredOverload {
  params: DeclaredParam[];
  /** Template parameters of a member template (`template<uint8_t DATA_PIN> … addLeds(…)`). */
  templateParams?: DeclaredParam[];
  /** The declaration as written, for the message. */
  text: string;
  file: string;
  line: number;
}

export interface DeclaredClass {
  name: string;
  /** Constructors under the class's name; members by name. */
  members: Map<string, DeclaredOverload[]>;
  file: string;
  line: number;
}

export interface LibraryDeclarations {
  classes: Map<string, DeclaredClass>;
  /** `extern TwoWire Wire;` → Wire: TwoWire. */
  objects: Map<string, string>;
  /** Class templates and their parameter types (`template<uint8_t DATA_PIN> class NEOPIXEL` → [uint8_t]). */
  classTemplates: Map<string, string[]>;
  /** Enum type → its enumerators. */
  enums: Map<string, Set<string>>;
}

/**
 * Members that give the library a board pin to set up. Other members with a `pin` parameter are
 * left alone: an I/O expander's `digitalWrite(pin, v)` means a pin of the expander chip.
 */
export const PIN_MEMBERS = /^(attach|begin|addLeds|setPins?|set(SDA|SCL|RX|TX|MISO|MOSI|SCK|CS|SS))$/;

// Parameter names that say "a pin of the board": `pin`, `dataPin`, `receivePin`, `DATA_PIN`, and
// the signal names of the buses and of LiquidCrystal's constructors.
const PIN_NAME = /(^|_)pin|Pin|PIN/;
const SIGNAL_NAME = /^_?(rx|tx|sda|scl|sck|miso|mosi|ss|cs|rs|rw|enable|d[0-7])(_?pin)?$/i;
const READ_NAME = /^_?(rx|miso)(_?pin)?$|receive|^rxPin$/i;

/** Whether a parameter name says it is a board pin, and what the library does with it. */
export function pinRole(name: string, member?: string): PinRole | undefined {
  if (!PIN_NAME.test(name) && !SIGNAL_NAME.test(name)) return undefined;
  if (/^(numPins|pinCount|pins)$/i.test(name)) return undefined;
  // `setRX(pin)`: the member names the signal.
  if (member && /^set(RX|MISO)$/.test(member)) return 'read';
  return READ_NAME.test(name) ? 'read' : 'drive';
}

const MAX_HEADER_FILES = 150;

/** Reads the classes, extern objects, class templates and enums of library headers under the board's macros. */
export function readLibraryDeclarations(headers: string[], macros: ReadonlyMap<string, Macro>): LibraryDeclarations {
  const declarations: LibraryDeclarations = { classes: new Map(), objects: new Map(), classTemplates: new Map(), enums: new Map() };
  // One board's macros are one Map for every sketch checked on it: each header is read once per board.
  const cache = READ.get(macros) ?? READ.set(macros, new Map()).get(macros)!;
  for (const header of headers) {
    let stamp = 0;
    try {
      stamp = statSync(header).mtimeMs;
    } catch {
      continue;
    }
    const key = `${header}\0${stamp}`;
    let read = cache.get(key);
    if (!read) {
      read = { classes: new Map(), objects: new Map(), classTemplates: new Map(), enums: new Map() };
      const library = dirname(header);
      // A library's header may declare its class in a header of its own folder; a core header is read alone.
      const inLibrary = /\/libraries\//.test(header);
      let followed = 0;
      const result = preprocess([header], { defines: {}, macros, includeDirs: [library], follow: (path) => inLibrary && /\.(h|hpp)$/.test(path) && path.startsWith(`${library}/`) && ++followed <= MAX_HEADER_FILES });
      collectDeclarations(result.tokens, read);
      cache.set(key, read);
    }
    for (const [name, declared] of read.classes) if (!declarations.classes.has(name)) declarations.classes.set(name, declared);
    for (const [name, type] of read.objects) declarations.objects.set(name, type);
    for (const [name, types] of read.classTemplates) declarations.classTemplates.set(name, types);
    for (const [name, enumerators] of read.enums) declarations.enums.set(name, enumerators);
  }
  return declarations;
}

const READ = new WeakMap<ReadonlyMap<string, Macro>, Map<string, LibraryDeclarations>>();

/** Declarations quoted from a header's text (a cited data file's). */
export function declarationsFromText(text: string, file: string, into: LibraryDeclarations): void {
  collectDeclarations(tokenize(text, file), into);
}

function matchingClose(tokens: Token[], open: number, openText: string, closeText: string): number {
  let depth = 0;
  for (let index = open; index < tokens.length; index++) {
    if (tokens[index].text === openText) depth++;
    else if (tokens[index].text === closeText && --depth === 0) return index;
  }
  return -1;
}

// `template < … >` starting at `at` (the `template` token): the index after `>`, counting nested `<>` outside parentheses.
function templateEnd(tokens: Token[], at: number): number {
  if (tokens[at + 1]?.text !== '<') return at + 1;
  let depth = 0;
  for (let index = at + 1; index < tokens.length; index++) {
    const text = tokens[index].text;
    if (text === '<') depth++;
    else if (text === '>') depth--;
    else if (text === '>>') depth -= 2;
    else if (text === '{' || text === ';') return index;
    if (depth <= 0) return index + 1;
  }
  return tokens.length;
}

function collectDeclarations(tokens: Token[], into: LibraryDeclarations): void {
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (token.kind !== 'identifier') continue;
    if (token.text === 'extern' && tokens[index + 1]?.kind === 'identifier') {
      // extern TwoWire Wire;  extern CFastLED FastLED;  extern SPIClass &SPI;
      let at = index + 1;
      const type = tokens[at].text;
      at++;
      while (tokens[at]?.text === '&' || tokens[at]?.text === '*') at++;
      if (tokens[at]?.kind === 'identifier' && tokens[at + 1]?.text === ';') into.objects.set(tokens[at].text, type);
      continue;
    }
    if (token.text === 'template') {
      const end = templateEnd(tokens, index);
      const keyword = tokens[end]?.text;
      if ((keyword === 'class' || keyword === 'struct') && tokens[end + 1]?.kind === 'identifier' && [':', '{', ';'].includes(tokens[end + 2]?.text ?? '')) into.classTemplates.set(tokens[end + 1].text, parameters(tokens.slice(index + 2, end - 1)).map((param) => param.type));
      continue;
    }
    if (token.text === 'enum') {
      let at = index + 1;
      if (tokens[at]?.text === 'class' || tokens[at]?.text === 'struct') at++;
      const name = tokens[at]?.kind === 'identifier' ? tokens[at].text : undefined;
      while (at < tokens.length && tokens[at].text !== '{' && tokens[at].text !== ';') at++;
      if (!name || tokens[at]?.text !== '{') continue;
      const close = matchingClose(tokens, at, '{', '}');
      const enumerators = new Set<string>();
      for (let inner = at + 1; inner < close; inner++) if (tokens[inner].kind === 'identifier' && (tokens[inner - 1].text === '{' || tokens[inner - 1].text === ',')) enumerators.add(tokens[inner].text);
      into.enums.set(name, enumerators);
      continue;
    }
    if ((token.text === 'class' || token.text === 'struct') && tokens[index + 1]?.kind === 'identifier' && tokens[index - 1]?.text !== 'enum' && tokens[index - 1]?.text !== 'friend') {
      const name = tokens[index + 1].text;
      // The head runs to `{` (a definition) or `;` (a forward declaration).
      let at = index + 2;
      while (at < tokens.length && tokens[at].text !== '{' && tokens[at].text !== ';' && tokens[at].text !== '(' && tokens[at].text !== '=') at++;
      if (tokens[at]?.text !== '{') continue;
      const close = matchingClose(tokens, at, '{', '}');
      if (close < 0) continue;
      const declared: DeclaredClass = into.classes.get(name) ?? { name, members: new Map(), file: token.file ?? '', line: token.line };
      readMembers(tokens, at + 1, close, declared);
      into.classes.set(name, declared);
      index = close;
    }
  }
}

// The class body's member declarations at its own depth: for each statement, the declarators
// `name(params)` (several in `void begin(void), show(void);`), skipping inline bodies.
function readMembers(tokens: Token[], start: number, end: number, into: DeclaredClass): void {
  let statement = start;
  let templateParams: DeclaredParam[] | undefined;
  for (let index = start; index < end; index++) {
    const text = tokens[index].text;
    if (text === ';' || text === '}') {
      statement = index + 1;
      templateParams = undefined;
      continue;
    }
    if (text === ':' && ['public', 'private', 'protected'].includes(tokens[index - 1]?.text ?? '')) {
      statement = index + 1;
      continue;
    }
    if (text === '{') {
      // An inline body, a nested class or an initializer: skip it; a body ends the statement.
      const close = matchingClose(tokens, index, '{', '}');
      if (close < 0) return;
      index = close;
      if (tokens[close + 1]?.text !== ';' && tokens[close + 1]?.text !== ',') {
        statement = close + 1;
        templateParams = undefined;
      }
      continue;
    }
    if (text === 'template' && index === statement) {
      const after = templateEnd(tokens, index);
      templateParams = parameters(tokens.slice(index + 2, after - 1));
      index = after - 1;
      continue;
    }
    if (text !== '(' || tokens[index - 1]?.kind !== 'identifier') continue;
    const nameToken = tokens[index - 1];
    const close = matchingClose(tokens, index, '(', ')');
    if (close < 0) return;
    const name = nameToken.text;
    if (tokens[index - 2]?.text !== '~' && tokens[index - 2]?.text !== 'operator' && (name === into.name || PIN_MEMBERS.test(name))) {
      const declared = parameters(tokens.slice(index + 1, close));
      // `setPin(int16_t p)`, `setSDA(pin_size_t sda)`: a one-parameter setter's name says what it takes.
      const setter = declared.length === 1 && /^set(Pin|SDA|SCL|RX|TX|MISO|MOSI|SCK|CS|SS)$/.test(name);
      const params = declared.map((param) => ({ ...param, pin: setter ? (/^set(RX|MISO)$/.test(name) ? 'read' as const : 'drive' as const) : pinRole(param.name, name) }));
      const overloads = into.members.get(name) ?? [];
      overloads.push({
        params,
        ...(templateParams ? { templateParams: templateParams.map((param) => ({ ...param, pin: param.type === 'template' || param.type === 'class' ? undefined : pinRole(param.name, name) })) } : {}),
        text: tokens.slice(statement, close + 1).map((token) => token.text).join(' ').replace(/ ?([(),<>]) ?/g, '$1').replace(/,/g, ', '),
        file: nameToken.file ?? into.file,
        line: nameToken.line,
      });
      into.members.set(name, overloads);
    }
    // Past the parameters: an initializer list or body follows, or the next declarator after `,`.
    index = close;
  }
}

/** `uint8_t pin, int min = 0` → its parameters; `void` alone is none. */
function parameters(tokens: Token[]): DeclaredParam[] {
  const parts: Token[][] = [[]];
  let depth = 0;
  for (const token of tokens) {
    if (token.text === '(' || token.text === '<' || token.text === '[' || token.text === '{') depth++;
    if (token.text === ')' || token.text === '>' || token.text === ']' || token.text === '}') depth--;
    if (token.text === '>>') depth -= 2;
    if (token.text === ',' && depth === 0) parts.push([]);
    else parts[parts.length - 1].push(token);
  }
  if (parts.length === 1 && (parts[0].length === 0 || (parts[0].length === 1 && parts[0][0].text === 'void'))) return [];
  return parts.map((part) => {
    const equals = part.findIndex((token, offset) => token.text === '=' && angleDepth(part, offset) === 0);
    const head = equals >= 0 ? part.slice(0, equals) : part;
    const nameToken = [...head].reverse().find((token) => token.kind === 'identifier');
    const kind = head[0]?.text === 'template' ? 'template' : head[0]?.text === 'class' || head[0]?.text === 'typename' ? 'class' : head.filter((token) => token.kind === 'identifier' && token !== nameToken && token.text !== 'const').map((token) => token.text).join(' ');
    // An unnamed parameter (`uint8_t`) has its type as its last word: it names no pin.
    const named = head.length > 1 && nameToken !== undefined && nameToken === head[head.length - 1];
    if (kind === 'template' && head[1]?.text === '<') {
      const close = templateEnd(head, 0);
      return { name: named ? nameToken.text : '', type: kind, hasDefault: equals >= 0, inner: parameters(head.slice(2, close - 1)).map((param) => param.type) };
    }
    return { name: named ? nameToken.text : '', type: kind, hasDefault: equals >= 0 };
  });
}

function angleDepth(tokens: Token[], upTo: number): number {
  let depth = 0;
  for (let index = 0; index < upTo; index++) {
    if (tokens[index].text === '<') depth++;
    if (tokens[index].text === '>') depth--;
  }
  return depth;
}
