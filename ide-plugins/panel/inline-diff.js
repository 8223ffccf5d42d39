// A change (ACP diff content: path, oldText, newText) in Monaco's diff editor inside a card:
// inline (one column fits a side bar), read-only, its height fitted to the changed lines.
import { languageOf, loadMonaco } from './changes.js';

const LINE_PX = 19;
const MIN_PX = 80;
const MAX_PX = 260;

/** Draws `diff` into `box`; resolves to the editor (dispose it with the card). */
export async function inlineDiff(box, diff) {
  const monaco = await loadMonaco();
  const language = languageOf(diff.path);
  const original = monaco.editor.createModel(diff.oldText ?? '', language);
  const modified = monaco.editor.createModel(diff.newText, language);
  const editor = monaco.editor.createDiffEditor(box, {
    readOnly: true,
    originalEditable: false,
    renderSideBySide: false,
    useInlineViewWhenSpaceIsLimited: true,
    automaticLayout: true,
    minimap: { enabled: false },
    scrollBeyondLastLine: false,
    renderOverviewRuler: false,
    lineNumbersMinChars: 3,
    glyphMargin: false,
    folding: false,
    fontSize: 12,
    hideUnchangedRegions: { enabled: true, contextLineCount: 2, minimumLineCount: 3, revealLineCount: 10 },
  });
  editor.onDidUpdateDiff(() => {
    const changes = editor.getLineChanges() ?? [];
    const lines = changes.reduce((n, c) => n + Math.max(0, c.originalEndLineNumber - c.originalStartLineNumber + 1) + Math.max(0, c.modifiedEndLineNumber - c.modifiedStartLineNumber + 1) + 4, 2);
    box.style.height = `${Math.max(MIN_PX, Math.min(MAX_PX, lines * LINE_PX))}px`;
    box.dataset.ready = 'true';
    box.dataset.changes = String(changes.length);
  });
  editor.setModel({ original, modified });
  return {
    box,
    dispose() {
      editor.dispose();
      original.dispose();
      modified.dispose();
    },
  };
}
