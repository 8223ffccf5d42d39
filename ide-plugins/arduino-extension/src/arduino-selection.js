'use strict';
// The sketch, board (FQBN with its options) and port the person picked, from the
// Arduino IDE's `vscode-arduino-api` extension when it is there, otherwise from the
// first workspace folder and its sketch.yaml (plain VS Code).
const { readFileSync } = require('node:fs');
const path = require('node:path');

const ARDUINO_API_ID = 'dankeboy36.vscode-arduino-api';

/** @returns {Promise<object | undefined>} the ArduinoContext, or undefined outside the Arduino IDE */
async function arduinoApi(vscode) {
  const extension = vscode.extensions.getExtension(ARDUINO_API_ID);
  if (!extension) return undefined;
  try {
    return extension.isActive ? extension.exports : await extension.activate();
  } catch {
    return undefined;
  }
}

/** @returns {{ sketch?: string, board?: string, port?: string }} */
function selectionFromArduino(api) {
  const sketch = api.currentSketch;
  return {
    sketch: sketch?.sketchPath ?? api.sketchPath,
    // configOptions is the FQBN with the board options: arduino:avr:nano:cpu=atmega328old
    board: sketch?.configOptions ?? sketch?.board?.fqbn ?? api.fqbn,
    port: sketch?.port?.address ?? api.port?.address,
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

/**
 * The selection now, and a watch that calls `onChange` with the new one whenever the
 * person picks another board, port or sketch. Returns disposables.
 */
function watchSelection(vscode, api, onChange) {
  if (api) {
    const fire = () => onChange(selectionFromArduino(api));
    const events = [api.onDidChangeCurrentSketch, api.onDidChangeSketch].filter(Boolean);
    if (events.length) return events.map((event) => event(fire));
    return ['fqbn', 'port', 'sketchPath'].map((property) => api.onDidChange(property)(fire));
  }
  return [
    vscode.workspace.onDidSaveTextDocument((document) => {
      if (path.basename(document.uri.fsPath) === 'sketch.yaml') onChange(selectionFromFolder(vscode));
    }),
  ];
}

module.exports = { ARDUINO_API_ID, arduinoApi, selectionFromArduino, selectionFromFolder, watchSelection };
