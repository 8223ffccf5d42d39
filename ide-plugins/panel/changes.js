// The files the agent changed, each with Accept / Reject, and a Monaco diff
// editor for the selected one. Monaco is loaded only when the first diff opens.
import { monacoTheme, onThemeChange } from './theme.js';

const $ = (id) => document.getElementById(id);

const LANGUAGES = { '.ino': 'cpp', '.cpp': 'cpp', '.c': 'c', '.h': 'cpp', '.hpp': 'cpp', '.py': 'python', '.json': 'json', '.yaml': 'yaml', '.yml': 'yaml', '.md': 'markdown', '.S': 'asm' };

let monacoReady;
/** Monaco, loaded once by the first view that needs it. */
export function loadMonaco() {
  monacoReady ??= new Promise((resolve, reject) => {
    window.require.config({ paths: { vs: new URL('vs', document.baseURI).href } });
    window.require(['vs/editor/editor.main'], () => {
      // Monaco's theme is one for the page: it follows the IDE's (or the system's).
      window.monaco.editor.setTheme(monacoTheme());
      onThemeChange(() => window.monaco.editor.setTheme(monacoTheme()));
      resolve(window.monaco);
    }, reject);
  });
  return monacoReady;
}

export function languageOf(file) {
  const dot = file.lastIndexOf('.');
  return (dot >= 0 && LANGUAGES[file.slice(dot)]) || 'plaintext';
}

export class ChangesView {
  constructor(send) {
    this.send = send;
    this.items = new Map();
    this.selected = undefined;
    this.editor = undefined;
  }

  reset(reviews) {
    $('reviews').replaceChildren();
    this.items.clear();
    for (const review of reviews) this.update(review);
    if (this.selected && this.items.has(this.selected)) this.send({ type: 'diff', path: this.selected });
  }

  update(review) {
    let item = this.items.get(review.path);
    if (!item) {
      item = document.createElement('li');
      item.dataset.path = review.path;
      const name = document.createElement('span');
      name.className = 'name';
      name.title = 'show the diff';
      name.addEventListener('click', () => this.select(review.path));
      const status = document.createElement('span');
      const accept = button('Accept', 'allow', () => this.decide(review.path, 'accept'));
      const reject = button('Reject', 'reject', () => this.decide(review.path, 'reject'));
      const problem = document.createElement('span');
      problem.className = 'problem';
      item.append(name, status, accept, reject, problem);
      this.items.set(review.path, item);
      $('reviews').append(item);
    }
    const [name, status, accept, reject, problem] = item.children;
    name.textContent = `${review.name}${review.created ? ' (new)' : ''}`;
    status.textContent = review.status;
    status.className = `status ${review.status}`;
    accept.disabled = reject.disabled = review.status !== 'pending';
    problem.textContent = review.problem ?? '';
    item.dataset.status = review.status;
    $('no-changes').hidden = this.items.size > 0;
    const pending = [...this.items.values()].filter((i) => i.dataset.status === 'pending').length;
    $('changes-count').hidden = pending === 0;
    $('changes-count').textContent = String(pending);
    // A new change to the file on screen: show its new diff; the first change opens itself.
    if (review.status === 'pending' && (this.selected === review.path || !this.selected)) this.select(review.path);
  }

  decide(path, decision) {
    for (const b of this.items.get(path).querySelectorAll('button')) b.disabled = true;
    this.send({ type: 'review', path, decision });
  }

  select(path) {
    this.selected = path;
    for (const [p, item] of this.items) item.classList.toggle('selected', p === path);
    this.send({ type: 'diff', path });
  }

  async showDiff({ path, original, modified }) {
    if (path !== this.selected) return;
    $('diff-head').hidden = false;
    $('diff-name').textContent = `${path}: before the agent ↔ now`;
    const monaco = await loadMonaco();
    if (!this.editor) {
      this.editor = monaco.editor.createDiffEditor($('diff'), { readOnly: true, automaticLayout: true, renderSideBySide: true, originalEditable: false, minimap: { enabled: false } });
      this.editor.onDidUpdateDiff(() => ($('diff').dataset.ready = $('diff').dataset.path));
    }
    $('diff').dataset.path = path;
    $('diff').dataset.ready = '';
    const language = languageOf(path);
    const old = this.editor.getModel();
    this.editor.setModel({ original: monaco.editor.createModel(original, language), modified: monaco.editor.createModel(modified, language) });
    old?.original.dispose();
    old?.modified.dispose();
  }

  layout() {
    this.editor?.layout();
  }
}

function button(label, className, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = className;
  b.textContent = label;
  b.addEventListener('click', onClick);
  return b;
}
