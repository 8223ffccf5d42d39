// The pins a sketch hands to library objects: `Servo s; s.attach(9)`, `OneWire ds(10)`,
// `Adafruit_NeoPixel strip(N, PIN, …)`, `SoftwareSerial ss(rx, tx)`, `LiquidCrystal lcd(rs, en, …)`,
// `FastLED.addLeds<WS2812, PIN, GRB>(…)`, `Wire.begin(sda, scl)`, `SPI.begin(sck, miso, mosi, ss)`,
// `Wire.setSDA(pin)`. The object's class comes from the sketch's declaration (or the library's
// `extern` object), the overload from the argument count (and the first template argument's kind),
// and which argument is a pin from the parameter's name in the library's own declaration
// (library-declarations.ts); where the library is not installed, from the declarations quoted in
// boards/data/library-pins.json, each citing the header at a named commit.
import type { Token } from './c-tokens.js';
import { libraryIndex } from './library-index.js';
import { declarationsFromText, PIN_MEMBERS, type DeclaredOverload, type LibraryDeclarations, type PinRole } from './library-declarations.js';
import { expandMacros } from './preprocessor.js';
import type { SketchSymbols } from './sketch-symbols.js';

export interface LibraryPinUse {
  /** `myservo.attach(9)`, `OneWire ds(10)`, as the sketch wrote the call (arguments shortened). */
  label: string;
  /** The argument's tokens and what the library does with the pin. */
  arg: Token[];
  role: PinRole;
  /** The parameter as the library declares it (`int pin`), and where. */
  param: string;
  declaration: { text: string; file: string; line: number };
  className: string;
  token: Token;
  /** Index of the call's (or declaration's) name token in the sketch's tokens. */
  at: number;
}

/** The declarations of the cited data file for the libraries whose header the sketch includes and no installed file declares. */
export function citedDeclarations(includes: string[], installed: LibraryDeclarations): LibraryDeclarations {
  const cited: LibraryDeclarations = { classes: new Map(), objects: new Map(), classTemplates: new Map(), enums: new Map() };
  for (const entry of libraryIndex()) {
    if (!entry.declarations || !includes.includes(entry.header)) continue;
    const own: LibraryDeclarations = { classes: new Map(), objects: new Map(), classTemplates: new Map(), enums: new Map() };
    declarationsFromText(entry.declarations, `${entry.source.repository}@${entry.source.commit.slice(0, 7)}:${entry.source.file}${entry.source.lines ? `:${entry.source.lines}` : ''}`, own);
    for (const [name, declared] of own.classes) if (!installed.classes.has(name)) cited.classes.set(name, declared);
  }
  return cited;
}

const shorten = (args: Token[][]): string => {
  const text = args.map((arg) => arg.map((token) => token.text).join(' ').replace(/ ?([().<>\[\]]) ?/g, '$1')).join(', ');
  return text.length > 48 ? `${text.slice(0, 45)}…` : text;
};

function splitArgs(tokens: Token[], open: number, closeText: string): { args: Token[][]; end: number } | undefined {
  const openText = tokens[open].text;
  const args: Token[][] = [[]];
  let depth = 0;
  for (let index = open + 1; index < tokens.length; index++) {
    const text = tokens[index].text;
    if (text === ';' && closeText !== ';') return undefined;
    if (text === '(' || text === '[' || text === '{' || (openText === '<' && text === '<')) depth++;
    if (depth === 0 && (text === closeText || (closeText === '>' && text === '>>'))) return { args: args.length === 1 && args[0].length === 0 ? [] : args, end: index };
    if (text === ')' || text === ']' || text === '}' || (openText === '<' && text === '>')) depth--;
    if (text === ',' && depth === 0) args.push([]);
    else args[args.length - 1].push(tokens[index]);
  }
  return undefined;
}

/**
 * The overloads that take this many arguments (and template arguments). For a template, the first
 * template argument must fit the first template parameter: a class template for
 * `template<…> class CHIPSET`, an enumerator of the enum for `ESPIChipsets CHIPSET`.
 */
function fitting(overloads: DeclaredOverload[], count: number, templateArgs: Token[][] | undefined, declarations: Lookup, macros: SketchSymbols['macros']): DeclaredOverload[] {
  const takes = (params: DeclaredOverload['params'], n: number): boolean => n <= params.length && n >= params.filter((param) => !param.hasDefault).length;
  return overloads.filter((overload) => {
    if (!takes(overload.params, count)) return false;
    if (!templateArgs) return !overload.templateParams || overload.templateParams.every((param) => param.hasDefault);
    if (!overload.templateParams || !takes(overload.templateParams, templateArgs.length)) return false;
    const first = overload.templateParams[0];
    const arg = templateArgs[0] ? expandMacros(templateArgs[0], macros) : [];
    const name = arg.length === 1 && arg[0].kind === 'identifier' ? arg[0].text : undefined;
    if (!first || name === undefined) return true;
    if (first.type === 'template') {
      // A class template fits when its parameters are of the kinds the template template parameter names.
      const own = declarations.classTemplates.get(name);
      if (own) return !first.inner || (own.length === first.inner.length && own.every((type, index) => type === first.inner![index]));
      return !declarations.enumOf(name);
    }
    const enumerators = declarations.enums.get(first.type);
    if (enumerators) return enumerators.has(name);
    return true;
  });
}

/** For each argument position, the pin role all fitting overloads agree on (none where they differ). */
function agreedPins(overloads: DeclaredOverload[], count: number, pick: (overload: DeclaredOverload) => DeclaredOverload['params']): Array<{ role: PinRole; overload: DeclaredOverload; index: number } | undefined> {
  const result: Array<{ role: PinRole; overload: DeclaredOverload; index: number } | undefined> = [];
  for (let index = 0; index < count; index++) {
    const roles = overloads.map((overload) => pick(overload)[index]?.pin);
    const role = roles[0];
    result.push(role && roles.every((entry) => entry === role) ? { role, overload: overloads[0], index } : undefined);
  }
  return result;
}

interface Lookup extends LibraryDeclarations {
  enumOf(name: string): string | undefined;
}

/** Every pin the sketch passes to a library object's constructor or pin-taking member. */
export function libraryPinUses(symbols: SketchSymbols, installed: LibraryDeclarations, cited: LibraryDeclarations): LibraryPinUse[] {
  const classes = new Map([...cited.classes, ...installed.classes]);
  if (classes.size === 0) return [];
  const enumOf = (name: string): string | undefined => {
    for (const [type, enumerators] of [...installed.enums, ...cited.enums]) if (enumerators.has(name)) return type;
    return undefined;
  };
  const declarations: Lookup = { classes, objects: new Map([...cited.objects, ...installed.objects]), classTemplates: new Map([...cited.classTemplates, ...installed.classTemplates]), enums: new Map([...cited.enums, ...installed.enums]), enumOf };
  const { tokens } = symbols;
  const uses: LibraryPinUse[] = [];
  /** The sketch's objects of a library class: name → class. */
  const objects = new Map<string, string>();
  const isLibraryClass = (index: number): boolean => tokens[index]?.kind === 'identifier' && classes.has(tokens[index].text) && tokens[index - 1]?.text !== '.' && tokens[index - 1]?.text !== '->' && !symbols.scopes.declares(tokens[index].text, index);

  const record = (className: string, member: string, args: Token[][], templateArgs: Token[][] | undefined, token: Token, at: number, label: string): void => {
    const overloads = classes.get(className)?.members.get(member);
    if (!overloads) return;
    const fit = fitting(overloads, args.length, templateArgs, declarations, symbols.macros);
    if (fit.length === 0) return;
    const push = (arg: Token[] | undefined, pin: { role: PinRole; overload: DeclaredOverload; index: number } | undefined, params: 'params' | 'templateParams'): void => {
      if (!arg || !pin) return;
      const param = pin.overload[params]![pin.index];
      uses.push({ label, arg, role: pin.role, param: `${param.type} ${param.name}`.trim(), declaration: { text: pin.overload.text, file: pin.overload.file, line: pin.overload.line }, className, token, at });
    };
    agreedPins(fit, args.length, (overload) => overload.params).forEach((pin, index) => push(args[index], pin, 'params'));
    if (templateArgs) agreedPins(fit, templateArgs.length, (overload) => overload.templateParams ?? []).forEach((pin, index) => push(templateArgs[index], pin, 'templateParams'));
  };

  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (token.kind !== 'identifier') continue;
    // `new Servo(…)`, `Adafruit_NeoPixel(…)` as a temporary (`strip = Adafruit_NeoPixel(60, 6)`).
    if (isLibraryClass(index) && tokens[index + 1]?.text === '(' && tokens[index - 1]?.text !== '::') {
      const call = splitArgs(tokens, index + 1, ')');
      if (call) record(token.text, token.text, call.args, undefined, token, index, `${token.text}(${shorten(call.args)})`);
      continue;
    }
    // `Servo a, b[4];`  `OneWire ds(10);`  `SoftwareSerial s = SoftwareSerial(2, 3);`  `LiquidCrystal *lcd;`
    if (isLibraryClass(index) && (tokens[index + 1]?.kind === 'identifier' || tokens[index + 1]?.text === '*' || tokens[index + 1]?.text === '&')) {
      const className = token.text;
      let at = index + 1;
      while (at < tokens.length) {
        while (tokens[at]?.text === '*' || tokens[at]?.text === '&') at++;
        const name = tokens[at];
        if (name?.kind !== 'identifier') break;
        objects.set(name.text, className);
        at++;
        if (tokens[at]?.text === '[') at = (splitArgs(tokens, at, ']')?.end ?? at) + 1;
        const next = tokens[at]?.text;
        if (next === '(' || next === '{') {
          const call = splitArgs(tokens, at, next === '(' ? ')' : '}');
          if (!call) break;
          // `Servo make(int pin);` declares a function: its "arguments" are parameter declarations, with no value.
          record(className, className, call.args, undefined, name, at - 1, `${className} ${name.text}(${shorten(call.args)})`);
          at = call.end + 1;
        } else if (next === '=') {
          // The initialiser is read where it stands (a temporary or `new`); skip to the next declarator.
          let depth = 0;
          at++;
          while (at < tokens.length && !(depth === 0 && (tokens[at].text === ',' || tokens[at].text === ';'))) {
            if (['(', '[', '{'].includes(tokens[at].text)) depth++;
            if ([')', ']', '}'].includes(tokens[at].text)) depth--;
            at++;
          }
        }
        if (tokens[at]?.text !== ',') break;
        at++;
      }
      continue;
    }
    // `obj.attach(…)`, `obj->begin(…)`, `servos[i].attach(…)`, `FastLED.addLeds<…>(…)`.
    const dot = tokens[index - 1]?.text;
    if ((dot !== '.' && dot !== '->') || !PIN_MEMBERS.test(token.text)) continue;
    let receiverAt = index - 2;
    if (tokens[receiverAt]?.text === ']') {
      let depth = 0;
      for (; receiverAt >= 0; receiverAt--) {
        if (tokens[receiverAt].text === ']') depth++;
        if (tokens[receiverAt].text === '[' && --depth === 0) break;
      }
      receiverAt--;
    }
    const receiver = tokens[receiverAt];
    if (receiver?.kind !== 'identifier' || tokens[receiverAt - 1]?.text === '.' || tokens[receiverAt - 1]?.text === '->') continue;
    const own = objects.get(receiver.text);
    const className = own ?? (symbols.scopes.declares(receiver.text, receiverAt) ? undefined : declarations.objects.get(receiver.text));
    if (!className) continue;
    let open = index + 1;
    let templateArgs: Token[][] | undefined;
    if (tokens[open]?.text === '<') {
      const list = splitArgs(tokens, open, '>');
      if (!list) continue;
      templateArgs = list.args;
      open = list.end + 1;
    }
    if (tokens[open]?.text !== '(') continue;
    const call = splitArgs(tokens, open, ')');
    if (!call) continue;
    const receiverText = tokens.slice(receiverAt, index - 1).map((entry) => entry.text).join('');
    record(className, token.text, call.args, templateArgs, token, index, `${receiverText}${dot}${token.text}${templateArgs ? `<${shorten(templateArgs)}>` : ''}(${shorten(call.args)})`);
  }
  return uses;
}
