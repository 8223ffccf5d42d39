'use strict';
// The sketch's unsaved editor contents, sent to the bridge whenever they change so
// the agent reads what the person sees rather than the file on disk.
const path = require('node:path');

const SETTLE_MS = 200;

/** Every dirty file document inside `folder`, by absolute path. */
function unsavedBuffers(vscode, folder) {
  const buffers = {};
  for (const document of vscode.workspace.textDocuments) {
    if (document.uri.scheme !== 'file' || !document.isDirty) continue;
    const file = document.uri.fsPath;
    const relative = path.relative(folder, file);
    if (relative.startsWith('..') || path.isAbsolute(relative)) continue;
    buffers[file] = document.getText();
  }
  return buffers;
}

/** Calls `send(buffers)` a moment after the documents stop changing. Returns disposables. */
function watchBuffers(vscode, folder, send) {
  let timer;
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(() => send(unsavedBuffers(vscode, folder)), SETTLE_MS);
  };
  return [
    vscode.workspace.onDidChangeTextDocument(later),
    vscode.workspace.onDidSaveTextDocument(later),
    vscode.workspace.onDidCloseTextDocument(later),
    { dispose: () => clearTimeout(timer) },
  ];
}

module.exports = { unsavedBuffers, watchBuffers };
