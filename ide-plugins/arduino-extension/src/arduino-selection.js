'use strict';
// The sketch, board (FQBN with its options), port and build facts the person has in the
// IDE. Arduino IDE 2.2+ bundles vscode-arduino-api 0.1.2: flat properties (sketchPath,
// fqbn, boardDetails, port, compileSummary, dataDirPath, userDirPath) and one event per
// property. Its `fqbn` has the board options stripped; they are in boardDetails'
// selected configOptions. The 0.2 API (BoardLab in VS Code) has per-sketch objects. With
// neither (plain VS Code), the first workspace folder and its sketch.yaml.
const { readFileSync } = require('node:fs');
const path = require('node:path');

const ARDUINO_API_ID = 'dankeboy36.vscode-arduino-api';
/** Provides the 0.2 API in VS Code. */
const BOARDLAB_ID = 'dankeboy36.boardlab';

/** @returns {Promise<object | undefined>} the ArduinoContext, or undefined outside the Arduino IDE */
async function arduinoApi(vscode) {
  for (const id of [ARDUINO_API_ID, BOARDLAB_ID]) {
    const extension = vscode.extensions.getExtension(id);
    if (!extension) continue;
    try {
      const api = extension.isActive ? extension.exports : await extension.activate();
      if (api) return api;
    } catch {
      // an API that fails to start is as good as none: try the next, then sketch.yaml
    }
  }
  return undefined;
}

const fqbnBase = (fqbn) => (typeof fqbn === 'string' ? fqbn.split(':').slice(0, 3).join(':') : undefined);

/** The FQBN with the options selected in the board details, as the IDE itself builds it. */
function fqbnWithOptions(fqbn, details) {
  if (!fqbn || fqbn.split(':').length > 3 || !details || fqbnBase(details.fqbn) !== fqbn) return fqbn;
  const options = (details.configOptions ?? []).flatMap((option) => (option.values ?? []).filter((value) => value.selected).map((value) => `${option.option}=${value.value}`));
  return options.length ? `${fqbn}:${options.join(',')}` : fqbn;
}

/** Only what the bridge uses of a compile summary (the used libraries carry much more). */
function compileFacts(summary) {
  if (!summary || typeof summary !== 'object') return undefined;
  const platform = summary.buildPlatform ?? summary.boardPlatform;
  return {
    buildPath: summary.buildPath || undefined,
    sections: (summary.executableSectionsSize ?? []).map((s) => ({ name: String(s.name), size: Number(s.size), maxSize: Number(s.maxSize) })),
    libraries: (summary.usedLibraries ?? []).map((l) => ({ name: String(l.name), version: l.version || undefined, installDir: l.installDir || undefined })),
    platform: platform?.id ? { id: platform.id, version: platform.version || undefined, installDir: platform.installDir || undefined } : undefined,
  };
}

/** What the Arduino IDE knows of the build, for the board context; undefined when it knows nothing. */
function ideState({ details, compileSummary, dataDir, userDir }) {
  const state = {
    fqbn: details?.buildProperties ? fqbnBase(details.fqbn) : undefined,
    buildProperties: details?.buildProperties,
    dataDir: dataDir || undefined,
    userDir: userDir || undefined,
    lastCompile: compileFacts(compileSummary),
  };
  return Object.values(state).some((v) => v !== undefined) ? JSON.parse(JSON.stringify(state)) : undefined;
}

/** @returns {{ sketch?: string, board?: string, port?: string, arduinoIde?: object }} */
function selectionFromArduino(api) {
  const sketch = api.currentSketch;
  if (sketch !== undefined || 'openedSketches' in api) {
    // 0.2: `board` is the full details or just {name, fqbn}; configOptions is the FQBN with options.
    const board = sketch?.board;
    const details = board && 'buildProperties' in board ? board : undefined;
    return {
      sketch: sketch?.sketchPath,
      board: sketch?.configOptions ?? fqbnWithOptions(board?.fqbn, details),
      port: sketch?.port?.address,
      arduinoIde: ideState({ details, compileSummary: sketch?.compileSummary, dataDir: api.config?.dataDirPath, userDir: api.config?.userDirPath }),
    };
  }
  // 0.1.2: the IDE sends the new fqbn before the new details; details of another board are not used.
  const details = fqbnBase(api.boardDetails?.fqbn) === fqbnBase(api.fqbn) ? api.boardDetails : undefined;
  return {
    sketch: api.sketchPath,
    board: fqbnWithOptions(api.fqbn, details),
    port: api.port?.address,
    arduinoIde: ideState({ details, compileSummary: api.compileSummary, dataDir: api.dataDirPath, userDir: api.userDirPath }),
  };
}

/** @returns {{ sketch?: string, board?: string, port?: string }} */
function selectionFromFolder(vscode) {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) return {};
  let yaml = '';
  try {
    yaml = readFileSync(path.join(folder, 'sketch.yaml'), 'utf8');
  } catch {
    return { sketch: folder };
  }
  const value = (key) => new RegExp(`^${key}:\\s*(\\S+)\\s*$`, 'm').exec(yaml)?.[1];
  return { sketch: folder, board: value('default_fqbn'), port: value('default_port') };
}

/** 0.1.2 fires one event per property; options changes and late board details fire only `boardDetails`. */
const WATCHED_PROPERTIES = ['sketchPath', 'fqbn', 'boardDetails', 'port', 'compileSummary', 'dataDirPath', 'userDirPath'];

/**
 * Calls `onChange` with the new selection whenever the person picks another board,
 * option, port or sketch, or a compile finishes. Returns disposables.
 */
function watchSelection(vscode, api, onChange) {
  if (api) {
    const fire = () => onChange(selectionFromArduino(api));
    const events = [api.onDidChangeCurrentSketch, api.onDidChangeSketch, api.onDidChangeConfig].filter(Boolean);
    if (events.length) return events.map((event) => event(fire));
    return WATCHED_PROPERTIES.map((property) => api.onDidChange(property)(fire));
  }
  return [
    vscode.workspace.onDidSaveTextDocument((document) => {
      if (path.basename(document.uri.fsPath) === 'sketch.yaml') onChange(selectionFromFolder(vscode));
    }),
  ];
}

module.exports = { ARDUINO_API_ID, BOARDLAB_ID, arduinoApi, selectionFromArduino, selectionFromFolder, watchSelection, fqbnWithOptions };
