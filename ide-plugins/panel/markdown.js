// An agent's reply as markdown: markdown-it (served under /markdown-it/, loaded by index.html
// as the global `markdownit`) with raw HTML off, so a reply can only ever make markdown's own
// elements, and links only to http(s) and mailto addresses. Code blocks are coloured by
// Monaco's colorizer, the same tokenizer as the diff view, once the block is complete.
import { loadMonaco } from './changes.js';

const LINK = /^(https?:|mailto:)/i;
const FENCE_LANGUAGES = {
  c: 'c', h: 'cpp', cpp: 'cpp', 'c++': 'cpp', cc: 'cpp', hpp: 'cpp', ino: 'cpp', arduino: 'cpp',
  py: 'python', python: 'python', micropython: 'python',
  sh: 'shell', bash: 'shell', shell: 'shell', console: 'shell', zsh: 'shell',
  json: 'json', jsonc: 'json', yaml: 'yaml', yml: 'yaml', ini: 'ini', properties: 'ini', toml: 'ini',
  js: 'javascript', javascript: 'javascript', ts: 'typescript', typescript: 'typescript',
  md: 'markdown', markdown: 'markdown', asm: 'mips', s: 'mips', xml: 'xml', html: 'html', diff: 'plaintext',
};

let renderer;
function markdown() {
  if (renderer) return renderer;
  renderer = window.markdownit({ html: false, linkify: true, breaks: false, typographer: false });
  renderer.validateLink = (url) => LINK.test(url.trim());
  const defaultLink = renderer.renderer.rules.link_open ?? ((tokens, i, options, env, self) => self.renderToken(tokens, i, options));
  renderer.renderer.rules.link_open = (tokens, i, options, env, self) => {
    tokens[i].attrSet('target', '_blank');
    tokens[i].attrSet('rel', 'noopener noreferrer');
    return defaultLink(tokens, i, options, env, self);
  };
  return renderer;
}

/** The language Monaco colours a fence's info string as (undefined: leave it plain). */
export function fenceLanguage(info) {
  const word = (info ?? '').trim().split(/\s+/)[0].toLowerCase();
  return FENCE_LANGUAGES[word];
}

/** Draws `text` as markdown into `box` (its children replaced). */
export function renderMarkdown(box, text) {
  box.innerHTML = markdown().render(text);
  // markdown-it ends each block with a newline: no text of its own between the blocks.
  for (const node of [...box.childNodes]) if (node.nodeType === Node.TEXT_NODE && !node.textContent.trim()) node.remove();
  box.dataset.markdown = 'true';
}

/** Colours every fenced block in `box` that names a language Monaco knows. */
export async function colorizeBlocks(box) {
  const blocks = [...box.querySelectorAll('pre > code[class*="language-"]')].filter((code) => !code.dataset.colorized);
  if (blocks.length === 0) return;
  const monaco = await loadMonaco();
  for (const code of blocks) {
    const language = fenceLanguage(/language-(\S+)/.exec(code.className)?.[1]);
    if (!language) continue;
    const source = code.textContent;
    code.dataset.colorized = 'pending';
    // Monaco's colorizer escapes the text itself: what comes back is its own spans.
    const html = await monaco.editor.colorize(source, language, { tabSize: 4 });
    if (!code.isConnected || code.textContent !== source) continue;
    code.innerHTML = html;
    code.dataset.colorized = language;
  }
}
