// A read-only view of one workspace file at a line, for diagnostics' links. The
// server reads the file (confined to the workspace); Monaco shows it.
import { languageOf, loadMonaco } from './changes.js';

const $ = (id) => document.getElementById(id);

export class FileView {
  constructor(send, showTab) {
    this.send = send;
    this.showTab = showTab;
    this.wanted = undefined;
    this.editor = undefined;
  }

  /** A link was clicked: ask the server for the file, then show it at `line`. */
  open(target) {
    this.wanted = target;
    this.send({ type: 'open_file', path: target.path });
  }

  async show({ path, requested, text }) {
    const target = this.wanted;
    if (!target || target.path !== requested) return;
    $('tab-file-button').hidden = false;
    this.showTab('file');
    $('file-name').textContent = `${path}:${target.line}`;
    const monaco = await loadMonaco();
    const box = $('file-view');
    if (!this.editor) this.editor = monaco.editor.create(box, { readOnly: true, automaticLayout: true, minimap: { enabled: false } });
    const old = this.editor.getModel();
    this.editor.setModel(monaco.editor.createModel(text, languageOf(path)));
    old?.dispose();
    const line = Math.min(target.line, this.editor.getModel().getLineCount());
    this.editor.setSelection(new monaco.Selection(line, 1, line, this.editor.getModel().getLineMaxColumn(line)));
    this.editor.revealLineInCenter(line);
    box.dataset.path = path;
    box.dataset.line = String(line);
  }

  layout() {
    this.editor?.layout();
  }
}
