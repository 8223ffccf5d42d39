// Compiler diagnostics in tool output (`Blink.ino:6:3: error: …`, absolute or
// sketch-relative) become links to that line; the rest stays plain text.
const SOURCE = /((?:[A-Za-z]:)?[^\s:'"`()<>[\]]*[^\s:'"`()<>[\]/]\.(?:ino|pde|c|cc|cpp|cxx|h|hh|hpp|hxx|S|s|asm|py)):(\d+)(?::(\d+))?/g;

/** The text as a fragment with each `file:line[:col]` as an `a.file-link`; `open({ path, line, col })` on click. */
export function linkFileLines(text, open) {
  const fragment = document.createDocumentFragment();
  let at = 0;
  for (const match of text.matchAll(SOURCE)) {
    if (match.index > at) fragment.append(text.slice(at, match.index));
    const target = { path: match[1], line: Number(match[2]), col: match[3] ? Number(match[3]) : 1 };
    const link = document.createElement('a');
    link.className = 'file-link';
    link.href = '#';
    link.textContent = match[0];
    link.title = `open ${target.path} at line ${target.line}`;
    link.dataset.path = target.path;
    link.dataset.line = String(target.line);
    link.addEventListener('click', (e) => {
      e.preventDefault();
      open(target);
    });
    fragment.append(link);
    at = match.index + match[0].length;
  }
  if (at < text.length) fragment.append(text.slice(at));
  return fragment;
}

/**
 * The text a tool call's content and raw output carry, as the agent saw it. A
 * terminal in the content shows the output the bridge streamed for it
 * (`terminalText(terminalId)`), as Zed shows a client terminal inside its card.
 */
export function toolOutputText(call, terminalText = () => undefined) {
  const parts = [];
  for (const item of call.content ?? []) {
    if (item.type === 'content' && item.content?.type === 'text') parts.push(item.content.text);
    else if (item.type === 'terminal') {
      const text = typeof item.output === 'string' ? item.output : terminalText(item.terminalId);
      if (text) parts.push(text);
    }
  }
  if (parts.length === 0) parts.push(rawOutputText(call.rawOutput));
  return parts.join('\n').trim();
}

// claude-code-acp reports a tool's result as a list of text blocks; others as a string.
function rawOutputText(raw) {
  if (typeof raw === 'string') return raw;
  if (Array.isArray(raw)) return raw.filter((b) => b?.type === 'text' && typeof b.text === 'string').map((b) => b.text).join('\n');
  return '';
}
