// Builds the HardwareContext of an MPLAB project: the configuration in use,
// its device, toolchain, packs and options, the device pack's facts and the
// MCC pin names, every fact with the file (and line) it came from.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { join } from '../../platform/path-join.js';
import type { ContextNote, DetectedProject, Finding, HardwareContext, LibraryRef, Limit, Selection } from '../types.js';
import type { DeviceFacts } from './device-facts.js';
import { deviceFamily, describeFamily, FAMILY_TABLE, type DeviceFamily } from './device-family.js';
import { programMemory } from './edc.js';
import { readMccOutput } from './mcc-files.js';
import { readMplabXProject } from './mplabx-project.js';
import { normaliseOptions } from './options.js';
import { defaultPackRoots, findDeviceFacts, type PackLookup } from './packs.js';
import { buildPinTable } from './pin-table.js';
import { warning, type MplabConfiguration, type MplabProject } from './project-model.js';
import { readVsCodeProject } from './vscode-project.js';

export interface MplabxContextOptions {
  /** Folders holding `<vendor>/<pack>/<version>/`; default: MPLAB X's packs and ~/.mchp_packs. */
  packRoots?: string[];
}

export async function readProject(project: DetectedProject): Promise<MplabProject> {
  return project.main?.endsWith('.mplab.json') ? readVsCodeProject(project.root, project.main) : readMplabXProject(project.root);
}

export function chooseConfiguration(project: MplabProject, requested: string | undefined): { conf?: MplabConfiguration; warnings: Finding[] } {
  const confs = project.configurations;
  if (requested) {
    const conf = confs.find((c) => c.name === requested);
    if (conf) return { conf, warnings: [] };
    const names = confs.map((c) => c.name).join(', ') || 'none';
    const fallback = defaultConfiguration(project);
    return {
      conf: fallback,
      warnings: [warning('mplabx-configuration', `configuration "${requested}" does not exist in ${project.name} (available: ${names}); using "${fallback?.name ?? 'none'}"`)],
    };
  }
  return { conf: defaultConfiguration(project), warnings: [] };
}

function defaultConfiguration(project: MplabProject): MplabConfiguration | undefined {
  const last = project.lastSelected?.name;
  return project.configurations.find((c) => c.name === last) ?? project.configurations[0];
}

export async function loadMplabContext(detected: DetectedProject, selection: Selection, options: MplabxContextOptions = {}): Promise<HardwareContext> {
  const project = await readProject(detected);
  const { conf, warnings: choiceWarnings } = chooseConfiguration(project, selection.configuration);
  const warnings: Finding[] = [...project.warnings, ...choiceWarnings];
  const inputs = [...project.inputs];

  const normalised = conf ? normaliseOptions(conf) : { options: [], warnings: [] };
  warnings.push(...normalised.warnings);

  let lookup: PackLookup = { warnings: [], inputs: [] };
  if (conf?.device) {
    lookup = await findDeviceFacts(conf.device, conf.packs, options.packRoots ?? (await defaultPackRoots()));
    warnings.push(...lookup.warnings);
    inputs.push(...lookup.inputs);
  }
  const facts = lookup.facts;

  const mcc = await readMccOutput(project.root, outsideFolders(project), conf?.name);
  warnings.push(...mcc.warnings);
  inputs.push(...mcc.inputs);
  const table = buildPinTable(facts, mcc.pins);

  const missing = project.items.filter((i) => !i.exists && i.role !== 'other');
  if (missing.length > 0) {
    const first = missing[0].source;
    warnings.push(
      warning(
        'mplabx-missing-source',
        `${first.file}: ${missing.length} of ${project.items.filter((i) => i.role !== 'other').length} project files do not exist: ${missing
          .slice(0, 5)
          .map((i) => `${i.path} (line ${i.source.line})`)
          .join(', ')}${missing.length > 5 ? ', …' : ''}`,
        first.file,
        first.line,
      ),
    );
  }

  const device = conf?.device ?? facts?.device ?? 'unknown device';
  // An .atdf names the core; a .PIC's arch attribute does not, so PIC families come from the table.
  const family = conf?.device ? deviceFamily(conf.device, facts?.file.toLowerCase().endsWith('.atdf') ? { architecture: facts.architecture, file: facts.file } : undefined) : undefined;
  const flash = facts?.memories.find((m) => m.kind === 'flash');
  const ram = facts?.memories.find((m) => m.kind === 'ram');
  return {
    kind: 'mplabx',
    board: {
      name: device,
      id: device,
      mcu: device,
      architecture: family ? describeFamily(family) : architectureFromToolchain(conf?.toolchain),
      flashBytes: flash?.bytes,
      ramBytes: ram?.bytes,
      sources: {
        ...(conf?.sources.device ? { device: conf.sources.device } : {}),
        ...(flash ? { flashBytes: flash.source } : {}),
        ...(ram ? { ramBytes: ram.source } : {}),
        ...(family ? { architecture: { file: family.source.file } } : {}),
      },
    },
    pins: table.pins,
    buses: table.buses,
    toolchain: conf?.toolchain
      ? {
          name: conf.toolchain,
          version: conf.toolchainVersion,
          path: project.toolchainDirs[conf.name],
          options: normalised.options.map((o) => ({ name: o.name, value: o.value, source: o.source })),
          upload: conf.platformTool ? { tool: conf.platformTool } : undefined,
          source: conf.sources.toolchain,
        }
      : undefined,
    libraries: packsOf(conf, lookup),
    limits: facts ? limitsOf(facts, table.package) : programmerRangeLimits(conf),
    findings: [],
    warnings,
    readOnlyRoots: lookup.packFolder ? [lookup.packFolder] : [],
    inputs: [...new Set(inputs)],
    project: {
      configuration: conf?.name,
      configurations: project.configurations.map((c) => ({ name: c.name, device: c.device, toolchain: c.toolchain, source: c.sources.configuration })),
      files: project.items.map((i) => ({ path: i.path, role: i.role, ...(i.exists ? {} : { missing: true }), source: i.source })),
    },
    notes: [...familyNotes(conf?.device, family, facts ? 'its device file does not name the core' : 'the device pack is not installed'), ...imageNotes(conf), ...buildNotes(project, conf), ...notesOf(facts, table.package)],
  };
}

// The first folder of each item that lies outside the project (`../src/main.c` → `../src`).
function outsideFolders(project: MplabProject): string[] {
  const folders = project.items
    .filter((i) => i.path.startsWith('../'))
    .map((i) => resolve(project.root, i.path.split('/').slice(0, i.path.split('/').findIndex((part) => part !== '..') + 1).join('/')))
    .filter((folder) => existsSync(folder) && folder !== project.root);
  return [...new Set(folders)];
}

function familyNotes(device: string | undefined, family: DeviceFamily | undefined, why: string): ContextNote[] {
  if (!device) return [];
  if (!family) return [{ topic: 'device family', text: `${device} matches no family in the family table, and no installed device file names its core; its family and core are unknown`, source: { file: FAMILY_TABLE } }];
  if (!family.source.cited) return [];
  return [{ topic: 'device family', text: `${describeFamily(family)}, from the family table (${why}): ${family.source.cited}`, source: { file: family.source.file } }];
}

function imageNotes(conf: MplabConfiguration | undefined): ContextNote[] {
  return conf?.imagePath ? [{ topic: 'image', text: `the build writes ${conf.imagePath}`, source: conf.sources.imagePath }] : [];
}

// MPLAB for VS Code projects build from the CMake files the extension generates; say whether they are there.
function buildNotes(project: MplabProject, conf: MplabConfiguration | undefined): ContextNote[] {
  if (project.format !== 'vscode' || !conf) return [];
  const folder = `cmake/${project.name}/${conf.name}`;
  const presets = join(project.root, folder, 'CMakePresets.json');
  if (existsSync(presets)) return [{ topic: 'build', text: `boardbridge build runs the CMake project the MPLAB extension generated in ${folder}/ (cmake --preset, then cmake --build)`, source: { file: presets } }];
  return [{ topic: 'build', text: `${folder}/CMakePresets.json is missing: the MPLAB extension writes ${folder}/ when it builds the project in VS Code, and boardbridge build needs it` }];
}

function architectureFromToolchain(toolchain: string | undefined): string | undefined {
  switch (toolchain?.toUpperCase()) {
    case 'XC8':
      return '8-bit (PIC or AVR)';
    case 'XC16':
      return '16-bit (PIC24 or dsPIC)';
    case 'XC-DSC':
      return 'dsPIC (16- or 32-bit DSC)';
    case 'XC32':
      return '32-bit (PIC32 or SAM)';
    case 'AVR-GCC':
      return '8-bit AVR';
    case 'ARM GCC':
      return '32-bit Arm';
    default:
      return undefined;
  }
}

function packsOf(conf: MplabConfiguration | undefined, lookup: PackLookup): LibraryRef[] {
  return (conf?.packs ?? []).map((pack, index) => ({
    include: pack.name,
    name: pack.name,
    version: pack.version,
    // Only the pack the device file came from is known to be installed.
    ...(index === 0 && lookup.packFolder ? { path: lookup.packFolder } : {}),
    location: 'pack',
    source: pack.source,
  }));
}

const memoryLabels: Record<string, string> = { flash: 'Flash', ram: 'RAM', eeprom: 'EEPROM', fuses: 'Fuses', lockbits: 'Lock bits' };

function limitsOf(facts: DeviceFacts, packageName: string | undefined): Limit[] {
  const limits: Limit[] = facts.memories.map((m) => ({
    name: `${memoryLabels[m.kind] ?? m.kind} (${m.name}${m.words !== undefined ? `, ${m.words} words of ${m.wordBits} bits` : ''})`,
    value: m.bytes,
    unit: 'bytes',
    source: m.source,
  }));
  if (packageName) limits.push({ name: 'package', value: packageName, source: { file: facts.file } });
  return limits;
}

// Without the device pack, the programmer settings still record the program
// memory range MPLAB X writes (`memories.programmemory.ranges`, e.g. 0-1ffff).
function programmerRangeLimits(conf: MplabConfiguration | undefined): Limit[] {
  if (!conf?.device) return [];
  const blocks = [conf.platformTool ? conf.optionBlocks[conf.platformTool] : undefined, conf.optionBlocks.Tool];
  const range = blocks.flatMap((b) => b ?? []).find((p) => p.key === 'memories.programmemory.ranges');
  const match = range ? /^([0-9a-f]+)-([0-9a-f]+)$/i.exec(range.value.trim()) : null;
  if (!range || !match) return [];
  const units = Number.parseInt(match[2], 16) - Number.parseInt(match[1], 16) + 1;
  const memory = programMemory(conf.device, units);
  if (!memory) return [];
  const words = memory.words !== undefined ? `, ${memory.words} words of ${memory.wordBits} bits` : '';
  return [{ name: `Flash (range the programmer writes, 0x${match[1]}-0x${match[2]}${words})`, value: memory.bytes, unit: 'bytes', source: range.source }];
}

function notesOf(facts: DeviceFacts | undefined, packageName: string | undefined): ContextNote[] {
  if (!facts) return [];
  const notes: ContextNote[] = [];
  if (!facts.pinNumbersKnown && facts.pads.length > 0) {
    notes.push({ topic: 'pin numbers', text: 'The device file lists pins by function only; its order is not the package pin order, so pins are named by port (RC6), not numbered.', source: { file: facts.file } });
  }
  if (packageName && facts.packages.length > 1) {
    notes.push({ topic: 'package', text: `Pin numbers are for ${packageName}; the pack also describes ${facts.packages.slice(1).join(', ')}.`, source: { file: facts.file } });
  }
  for (const route of facts.alternates) {
    notes.push({ topic: 'alternate pin', text: `${route.signal} can be routed to ${route.pad} (${route.route})`, source: route.source });
  }
  for (const word of facts.configWords) {
    notes.push({ topic: 'configuration word', text: `${word.name}${word.address ? ` @${word.address}` : ''}: ${word.fields.map((f) => f.name).join(', ')}`, source: word.source });
  }
  return notes;
}
