'use strict';
// The agent's file changes in the IDE's own diff view: the content before the
// agent's writes (from the bridge's journal) on the left, the file on the right.
// The writes themselves arrive as edits of the open document, saved at once, so
// the IDE's undo takes an agent's change back like any other edit.
// Accept and reject go back to the bridge. Rejecting first puts the old text back
// through the open document (a WorkspaceEdit, then save), so the IDE's undo can
// bring the agent's version back; the bridge then finds the file restored and
// only records the decision (it restores from its journal when the editor could not).
const path = require('node:path');

const ORIGINAL_SCHEME = 'boardbridge-original';

class ChangeDiffs {
  /**
   * @param vscode the VS Code API
   * @param {(message: object) => void} send passes a message to the bridge through the panel
   */
  constructor(vscode, send) {
    this.vscode = vscode;
    this.send = send;
    this.reviews = new Map();
    this.originals = new Map();
    this.agentVersions = new Map();
    this.awaitingDiff = new Set();
    this.changed = new vscode.EventEmitter();
  }

  /** The read-only documents on the left of each diff. */
  contentProvider() {
    return {
      onDidChange: this.changed.event,
      provideTextDocumentContent: (uri) => this.originals.get(uri.path) ?? '',
    };
  }

  /** A message the panel passed on: reviews (on every connect), a review change, or a diff. */
  receive(message) {
    if (message.type === 'reviews') {
      for (const review of message.reviews) this.reviews.set(review.path, review);
    } else if (message.type === 'review') {
      const before = this.reviews.get(message.review.path);
      this.reviews.set(message.review.path, message.review);
      const isNew = !before || before.seqs.join() !== message.review.seqs.join() || before.status !== 'pending';
      if (message.review.status === 'pending' && isNew) this.requestDiff(message.review.path);
    } else if (message.type === 'diff') {
      return this.showDiff(message);
    }
    this.updateContextKey();
    return undefined;
  }

  requestDiff(file) {
    this.awaitingDiff.add(file);
    this.send({ type: 'diff', path: file });
  }

  async showDiff({ path: file, original, modified }) {
    this.originals.set(file, original);
    this.agentVersions.set(file, modified);
    const left = this.vscode.Uri.from({ scheme: ORIGINAL_SCHEME, path: file });
    this.changed.fire(left);
    // The page asks for diffs of its own; only the ones asked for here open an editor.
    if (!this.awaitingDiff.delete(file)) return;
    const name = path.basename(file);
    // The diff opens beside the conversation without taking the keyboard: the person may be typing
    // the next prompt in the panel, and keys meant for it must not land in the sketch.
    await this.vscode.commands.executeCommand('vscode.diff', left, this.vscode.Uri.file(file), `${name}: before the agent ↔ now (boardbridge)`, { preserveFocus: true });
  }

  /** Accept or reject the change shown in the active diff editor (or the only pending one). */
  async decide(decision) {
    const file = this.targetFile();
    if (!file) {
      this.vscode.window.showInformationMessage('boardbridge: no change from the agent is waiting for a decision.');
      return;
    }
    if (decision === 'reject') await this.restoreInEditor(file);
    this.send({ type: 'review', path: file, decision });
  }

  /**
   * The agent's write to an existing sketch file, applied as one edit of its document
   * (opened in the background when no editor shows it) and saved. Resolves false when
   * the IDE could not: the bridge then writes the file itself.
   */
  async applyWrite({ path: file, text }) {
    const vscode = this.vscode;
    try {
      const document =
        vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === file) ?? (await vscode.workspace.openTextDocument(vscode.Uri.file(file)));
      const current = document.getText();
      if (current !== text) {
        const edit = new vscode.WorkspaceEdit();
        edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(current.length)), text);
        if (!(await vscode.workspace.applyEdit(edit))) return false;
      }
      return document.isDirty ? await document.save() : true;
    } catch {
      return false;
    }
  }

  // Only when the document holds exactly the agent's version: the person's own edits
  // are never overwritten (the bridge then reports the conflict). A file the agent
  // created is removed by the bridge, as an edit cannot delete it.
  async restoreInEditor(file) {
    const original = this.originals.get(file);
    if (original === undefined || this.reviews.get(file)?.created) return;
    const vscode = this.vscode;
    try {
      const document =
        vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === file) ?? (await vscode.workspace.openTextDocument(vscode.Uri.file(file)));
      const text = document.getText();
      if (text !== this.agentVersions.get(file)) return;
      const edit = new vscode.WorkspaceEdit();
      edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(text.length)), original);
      if (await vscode.workspace.applyEdit(edit)) await document.save();
    } catch (error) {
      void vscode.window.showErrorMessage(`boardbridge: ${path.basename(file)} could not be restored in the editor (${error.message}); restoring it on disk instead.`);
    }
  }

  targetFile() {
    const pending = [...this.reviews.values()].filter((r) => r.status === 'pending').map((r) => r.path);
    const active = this.vscode.window.activeTextEditor?.document.uri;
    const shown = active && (active.scheme === ORIGINAL_SCHEME ? active.path : active.fsPath);
    if (shown && pending.includes(shown)) return shown;
    return pending.length === 1 ? pending[0] : undefined;
  }

  updateContextKey() {
    const pending = [...this.reviews.values()].some((r) => r.status === 'pending');
    void this.vscode.commands.executeCommand('setContext', 'boardbridge.reviewing', pending);
  }
}

module.exports = { ChangeDiffs, ORIGINAL_SCHEME };
