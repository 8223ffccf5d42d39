// What an MPLAB project says about itself, before device packs or MCC output
// are consulted. Both project formats (MPLAB X `.X` folders and MPLAB for
// VS Code `.mplab.json`) are read into this one shape.
import type { Finding, SourceRef } from '../types.js';

export interface MplabPack {
  name: string;
  vendor?: string;
  version?: string;
  source: SourceRef;
}

/** One `<property key value>` of an option block, or one property of a VS Code property group. */
export interface OptionProperty {
  key: string;
  value: string;
  source: SourceRef;
}

export interface MplabConfiguration {
  name: string;
  device?: string;
  /** Programmer/debugger as the project stores it: MPLAB X ids (`pkob4hybrid`, `ICD4Tool`, `Simulator`) or the VS Code `tool` (`PKOB nano`). */
  platformTool?: string;
  /** `XC8`, `XC16`, `XC32` as written in an MPLAB X project; from a VS Code `provider`: `XC-DSC`, `AVR-GCC`, `Arm GCC` too. */
  toolchain?: string;
  toolchainVersion?: string;
  /** MPLAB for VS Code: the built image as the configuration names it (`./out/<project>/default.elf`). */
  imagePath?: string;
  packs: MplabPack[];
  /** Option blocks by element name: `HI-TECH-COMP`, `C30`, `C32-LD`, ... */
  optionBlocks: Record<string, OptionProperty[]>;
  /** Where `device`, `toolchain`, `platformTool`, `imagePath` and the configuration itself are written. */
  sources: Record<string, SourceRef>;
}

export type ItemRole = 'source' | 'header' | 'linker' | 'other';

export interface ProjectItem {
  /** As written in the project (relative to the project folder, may start with `../`). */
  path: string;
  absolute: string;
  /** Display names of the logical folders from the root, e.g. `Source Files/Labs`. */
  folder: string;
  role: ItemRole;
  exists: boolean;
  source: SourceRef;
}

export interface MplabProject {
  format: 'mplabx' | 'vscode';
  /** The `.X` folder, or the VS Code workspace folder. */
  root: string;
  name: string;
  configurations: MplabConfiguration[];
  items: ProjectItem[];
  /** The configuration the IDE last had selected (nbproject/private), when recorded. */
  lastSelected?: { name: string; source: SourceRef };
  /** Compiler folder the IDE last used per configuration (nbproject/private). */
  toolchainDirs: Record<string, string>;
  warnings: Finding[];
  inputs: string[];
}

const sourceExtensions = new Set(['.c', '.cpp', '.cc', '.s', '.S', '.asm', '.as']);
const headerExtensions = new Set(['.h', '.hpp', '.inc']);
const linkerExtensions = new Set(['.ld', '.gld', '.lkr']);

export function itemRole(path: string, folder: string): ItemRole {
  const dot = path.lastIndexOf('.');
  const ext = dot >= 0 ? path.slice(dot) : '';
  // "Important Files" hold the Makefile and MCC state, never compiled.
  if (folder.startsWith('Important Files')) return 'other';
  if (sourceExtensions.has(ext) || sourceExtensions.has(ext.toLowerCase())) return 'source';
  if (headerExtensions.has(ext.toLowerCase())) return 'header';
  if (linkerExtensions.has(ext.toLowerCase())) return 'linker';
  return 'other';
}

export function warning(code: string, message: string, file?: string, line?: number): Finding {
  return { severity: 'warning', code, message, file, line };
}
