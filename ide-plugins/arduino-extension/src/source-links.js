'use strict';
// A compiler diagnostic's `file:line:col` link clicked in the panel: the IDE's own
// editor opens the file with the cursor on that spot. Only files of the sketch
// folder are opened, as the bridge itself reads nothing outside its workspace.
const path = require('node:path');

/**
 * @param vscode the VS Code API
 * @param {string} folder the sketch folder the bridge serves
 * @param {{ path: string, line: number, col?: number }} target from the panel; `path` absolute or sketch-relative
 */
async function openAtLine(vscode, folder, target) {
  const file = path.resolve(folder, String(target.path));
  const relative = path.relative(folder, file);
  if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
    void vscode.window.showErrorMessage(`boardbridge: ${target.path} is outside the sketch folder ${folder}; it was not opened.`);
    return;
  }
  const line = Math.max(0, Math.trunc(Number(target.line) || 1) - 1);
  const column = Math.max(0, Math.trunc(Number(target.col) || 1) - 1);
  try {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const at = new vscode.Position(line, column);
    await vscode.window.showTextDocument(document, { selection: new vscode.Range(at, at), preview: false });
  } catch (error) {
    void vscode.window.showErrorMessage(`boardbridge: ${file} could not be opened at line ${line + 1}: ${error.message}`);
  }
}

module.exports = { openAtLine };
