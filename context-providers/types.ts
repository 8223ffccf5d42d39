// The shared shape every context provider produces. Providers only read files:
// no network, no device I/O (DESIGN.md, "Core types").
import type { Finding, Severity, SourceRef } from '../platform/finding.js';

// Defined beneath both boards/ and the providers (platform/finding.ts); every provider's file
// names them from here.
export type { Finding, Severity, SourceRef };

export type ContextKind = 'arduino' | 'mplabx' | 'openmv';

export type PinCapability =
  | 'digital'
  | 'analog-in'
  | 'analog-out'
  | 'pwm'
  | 'interrupt'
  | 'i2c'
  | 'spi'
  | 'uart'
  | 'can'
  | 'usb'
  | 'led';

export interface Pin {
  /** The board's own pin number (Arduino pin number, package pin, GPIO). */
  number: number | string;
  /** Every name the pin goes by: `D3`, `A0`, `LED_BUILTIN`, `SDA`, `RC6`, the user's `LED`. */
  names: string[];
  capabilities: PinCapability[];
  /** Bus roles and peripheral functions, e.g. `I2C SDA`, `SPI MOSI`, `TX1`, `CCP1`. */
  functions?: string[];
  /** Interrupt number for `attachInterrupt`, when the pin has one. */
  interrupt?: number;
  /** Roles the project itself gives the pin (MCC pin grid, Harmony pin table): `GPIO output`, `TX1`. */
  assigned?: string[];
  /** What a capability is on this pin and the table row that says so: `pwm: GPT4 A`, `analog-in: AN00`. */
  details?: Partial<Record<PinCapability, { text: string; source?: SourceRef }>>;
  /** Chip traps of the pin (input-only, flash, strapping), each cited. */
  traps?: Array<{ code: string; text: string; source?: SourceRef }>;
  source?: SourceRef;
}

/** Whether the installed files establish a kind of fact at all; unknown carries the reason. */
export interface Knowledge {
  known: boolean;
  reason?: string;
  source?: SourceRef;
  /** The calls that use this capability when they are not Arduino's own (an ESP32 1.0.x core has LEDC and no analogWrite). */
  api?: string;
}

export interface Bus {
  kind: 'i2c' | 'spi' | 'uart' | 'can' | 'usb' | string;
  /** The name code uses: `Wire`, `SPI`, `Serial1`, `UART1`. */
  name: string;
  pins: Record<string, number | string>;
  source?: SourceRef;
}

export interface BoardIdentity {
  name: string;
  /** FQBN, device name or camera board id. */
  id: string;
  mcu?: string;
  architecture?: string;
  clockHz?: number;
  flashBytes?: number;
  ramBytes?: number;
  sources?: Record<string, SourceRef>;
}

export interface Toolchain {
  name: string;
  version?: string;
  path?: string;
  options?: Array<{ name: string; value: string; source?: SourceRef }>;
  upload?: { tool?: string; protocol?: string; speed?: number; method?: string };
  source?: SourceRef;
}

export interface LibraryRef {
  /** The `#include` (or import) as written. */
  include: string;
  name?: string;
  version?: string;
  /** Folder the include resolved to; absent when unresolved. */
  path?: string;
  location?: 'sketch' | 'user' | 'platform' | 'builtin' | 'pack' | string;
  source?: SourceRef;
}

export interface Limit {
  name: string;
  value: number | string;
  unit?: string;
  source?: SourceRef;
}

/** The project's own build configurations and files (MPLAB X configurations, sketch files). */
export interface ProjectFacts {
  /** The configuration in use (MPLAB X `--conf`). */
  configuration?: string;
  configurations?: Array<{ name: string; device?: string; toolchain?: string; source?: SourceRef }>;
  files?: Array<{ path: string; role?: 'source' | 'header' | 'linker' | 'other'; missing?: boolean; source?: SourceRef }>;
}

/** A further fact worth telling the agent that has no field of its own (configuration words, PORTMUX routes). */
export interface ContextNote {
  topic: string;
  text: string;
  source?: SourceRef;
}

export interface HardwareContext {
  kind: ContextKind;
  board: BoardIdentity;
  pins: Pin[];
  buses: Bus[];
  toolchain?: Toolchain;
  libraries: LibraryRef[];
  limits: Limit[];
  findings: Finding[];
  /** Problems reading the inputs: malformed lines, missing files; never fatal. */
  warnings: Finding[];
  /** Folders the agent may read (never write): installed cores, variants, packs. */
  readOnlyRoots: string[];
  /** Every file the context was built from, for cache invalidation. */
  inputs: string[];
  project?: ProjectFacts;
  notes?: ContextNote[];
  /** Which capabilities the files establish (`pwm`, `analog`, `interrupt`, `dac`, `serial`): unknown is not "none". */
  knowledge?: Record<string, Knowledge>;
  /** Pins that share one timer or PWM slice: one frequency change moves them all. */
  timerGroups?: Array<{ timer: string; pins: Array<number | string>; source?: SourceRef }>;
  /** What the sketch's diagram.json (Wokwi's circuit) wires to each board pin. */
  wiring?: Array<{ pin: string; number: number; to: string[]; source?: SourceRef }>;
}

/** What the face knows about the user's selection (IDE board picker, flags). */
export interface Selection {
  /** Arduino FQBN, MPLAB device, or OpenMV board id. */
  board?: string;
  port?: string;
  /** MPLAB X configuration name. */
  configuration?: string;
  /** Files the prompt concerns (active editor file first). */
  files?: string[];
  /** The connected device's firmware version when known, e.g. an OpenMV camera's `4.6.20` or `5.0.0`. */
  firmware?: string;
  /** What Arduino IDE 2.x reported through `vscode-arduino-api` (its extension passes it on). */
  arduinoIde?: ArduinoIdeState;
}

/** The Arduino IDE's own view of the build: board details and the last compile, as arduino-cli gave them to it. */
export interface ArduinoIdeState {
  /** The board the build properties belong to (board details' FQBN, without options). */
  fqbn?: string;
  /** `board details` build properties, expanded, for the board and options selected in the IDE. */
  buildProperties?: Record<string, string>;
  /** arduino-cli's data folder (platforms, tools) and the sketchbook, as the IDE uses them. */
  dataDir?: string;
  userDir?: string;
  /** The IDE's last Verify/Upload of this sketch. */
  lastCompile?: ArduinoCompileSummary;
}

export interface ArduinoCompileSummary {
  buildPath?: string;
  /** `text` (flash) and `data` (RAM) with their maxima, as arduino-cli measured them. */
  sections: Array<{ name: string; size: number; maxSize: number }>;
  libraries: Array<{ name: string; version?: string; installDir?: string }>;
  /** The platform that built it (`arduino:avr` 1.8.6), and where it is installed. */
  platform?: { id: string; version?: string; installDir?: string };
}

export interface DetectedProject {
  kind: ContextKind;
  root: string;
  /** The main file or project file: the sketch `.ino`, `project.X`, the script. */
  main?: string;
}

export interface ContextProvider {
  readonly kind: ContextKind;
  /** Cheap check whether `root` is a project this provider understands. */
  detect(root: string): Promise<DetectedProject | undefined>;
  load(project: DetectedProject, selection: Selection): Promise<HardwareContext>;
  /** Compact markdown for a prompt; every fact carries its source. */
  render(context: HardwareContext): string;
}
