// Reads an MPLAB X `.X` folder: nbproject/project.xml (name, configuration
// list), nbproject/configurations.xml (tools set, packs, option blocks,
// logical folders) and, when present, nbproject/private/configurations.xml
// (the configuration the IDE last had selected, compiler folders).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { join } from '../../platform/path-join.js';
import { MICROCHIP_PROJECT_TYPE, projectNameFromFolder } from './detect.js';
import {
  itemRole,
  warning,
  type MplabConfiguration,
  type MplabProject,
  type OptionProperty,
  type ProjectItem,
} from './project-model.js';
import { childNamed, childrenNamed, parseXml, type XmlDocument, type XmlElement } from './xml.js';
import { readRegularFile } from '../../platform/regular-file.js';

// Children of <conf> that are not option blocks of `<property>` elements.
const structuralElements = new Set(['toolsSet', 'packs', 'ScriptingSettings', 'compileType', 'makeCustomizationType']);

export async function readMplabXProject(folder: string): Promise<MplabProject> {
  const project: MplabProject = {
    format: 'mplabx',
    root: folder,
    name: projectNameFromFolder(folder),
    configurations: [],
    items: [],
    toolchainDirs: {},
    warnings: [],
    inputs: [],
  };
  const projectXml = await readDocument(join(folder, 'nbproject', 'project.xml'), project);
  if (projectXml?.root) readProjectXml(projectXml, project);
  const configurationsXml = await readDocument(join(folder, 'nbproject', 'configurations.xml'), project);
  if (configurationsXml?.root) readConfigurationsXml(configurationsXml, project);
  const privateFile = join(folder, 'nbproject', 'private', 'configurations.xml');
  if (existsSync(privateFile)) {
    const privateXml = await readDocument(privateFile, project);
    if (privateXml?.root) readPrivateSettings(privateXml, project);
  }
  return project;
}

async function readDocument(file: string, project: MplabProject): Promise<XmlDocument | undefined> {
  let why = 'not found';
  const text = await readRegularFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') why = `cannot be read (${error.code ?? error.message})`;
    return undefined;
  });
  if (text === undefined) {
    project.warnings.push(warning('mplabx-missing-file', `${file}: ${why}; the project cannot be read fully`, file));
    return undefined;
  }
  project.inputs.push(file);
  const doc = parseXml(text, file);
  project.warnings.push(...doc.problems);
  return doc;
}

function readProjectXml(doc: XmlDocument, project: MplabProject): void {
  const root = doc.root as XmlElement;
  const type = childNamed(root, 'type');
  if (type && type.text !== MICROCHIP_PROJECT_TYPE) {
    project.warnings.push(
      warning('mplabx-project-type', `${doc.file}:${type.line}: <type> is ${type.text}, not an MPLAB X project`, doc.file, type.line),
    );
  }
  const data = childNamed(childNamed(root, 'configuration'), 'data');
  const name = childNamed(data, 'name')?.text;
  if (name) project.name = name;
}

function readConfigurationsXml(doc: XmlDocument, project: MplabProject): void {
  const root = doc.root as XmlElement;
  for (const folder of childrenNamed(root, 'logicalFolder')) collectItems(folder, [], doc.file, project);
  const confs = childrenNamed(childNamed(root, 'confs'), 'conf');
  if (confs.length === 0) {
    project.warnings.push(warning('mplabx-no-configuration', `${doc.file}: no <confs>/<conf> element; no device or toolchain is known`, doc.file));
  }
  for (const conf of confs) project.configurations.push(readConf(conf, doc.file, project));
}

function collectItems(folder: XmlElement, path: string[], file: string, project: MplabProject): void {
  // The root folder is named "root" and is not shown to users.
  const here = folder.attrs.name === 'root' && path.length === 0 ? [] : [...path, folder.attrs.displayName ?? folder.attrs.name ?? '?'];
  const folderName = here.join('/');
  for (const child of folder.children) {
    if (child.name === 'logicalFolder') collectItems(child, here, file, project);
    else if (child.name === 'itemPath' && child.text) project.items.push(projectItem(child, folderName, file, project.root));
  }
}

function projectItem(el: XmlElement, folder: string, file: string, root: string): ProjectItem {
  // Projects made on Windows may use backslashes.
  const path = el.text.replace(/\\/g, '/');
  const absolute = resolve(root, path);
  return { path, absolute, folder, role: itemRole(path, folder), exists: existsSync(absolute), source: { file, line: el.line } };
}

function readConf(conf: XmlElement, file: string, project: MplabProject): MplabConfiguration {
  const name = conf.attrs.name ?? '';
  const tools = childNamed(conf, 'toolsSet');
  const field = (tag: string): XmlElement | undefined => {
    const el = childNamed(tools, tag);
    return el && el.text ? el : undefined;
  };
  const device = field('targetDevice');
  const platformTool = field('platformTool');
  const toolchain = field('languageToolchain');
  const toolchainVersion = field('languageToolchainVersion');
  const sources: MplabConfiguration['sources'] = { configuration: { file, line: conf.line } };
  if (device) sources.device = { file, line: device.line };
  if (platformTool) sources.platformTool = { file, line: platformTool.line };
  if (toolchain) sources.toolchain = { file, line: toolchain.line };
  if (!name) project.warnings.push(warning('mplabx-configuration', `${file}:${conf.line}: <conf> has no name attribute`, file, conf.line));
  if (!device) {
    project.warnings.push(
      warning('mplabx-no-device', `${file}:${tools?.line ?? conf.line}: configuration "${name}" has no <targetDevice>`, file, tools?.line ?? conf.line),
    );
  }
  const packs = childrenNamed(childNamed(conf, 'packs'), 'pack').map((pack) => ({
    name: pack.attrs.name ?? '',
    vendor: pack.attrs.vendor,
    version: pack.attrs.version,
    source: { file, line: pack.line },
  }));
  const optionBlocks: Record<string, OptionProperty[]> = {};
  for (const block of conf.children) {
    if (structuralElements.has(block.name)) continue;
    const properties = childrenNamed(block, 'property');
    if (properties.length === 0) continue;
    optionBlocks[block.name] = properties.map((p) => ({ key: p.attrs.key ?? '', value: p.attrs.value ?? '', source: { file, line: p.line } }));
  }
  return {
    name,
    device: device?.text,
    platformTool: platformTool?.text,
    toolchain: toolchain?.text,
    toolchainVersion: toolchainVersion?.text,
    packs,
    optionBlocks,
    sources,
  };
}

function readPrivateSettings(doc: XmlDocument, project: MplabProject): void {
  const root = doc.root as XmlElement;
  const defaultConf = childNamed(root, 'defaultConf');
  if (defaultConf) {
    const index = Number.parseInt(defaultConf.text, 10);
    const chosen = project.configurations[index];
    if (chosen) project.lastSelected = { name: chosen.name, source: { file: doc.file, line: defaultConf.line } };
    else {
      project.warnings.push(
        warning(
          'mplabx-default-configuration',
          `${doc.file}:${defaultConf.line}: <defaultConf>${defaultConf.text}</defaultConf> names no configuration (there are ${project.configurations.length}); using the first`,
          doc.file,
          defaultConf.line,
        ),
      );
    }
  }
  for (const conf of childrenNamed(childNamed(root, 'confs'), 'conf')) {
    const dir = childNamed(conf, 'languageToolchainDir')?.text;
    if (conf.attrs.name && dir) project.toolchainDirs[conf.attrs.name] = dir;
  }
}
