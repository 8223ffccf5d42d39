'use strict';
// What the view shows when there is no panel to show: a short message (no sketch open,
// the bridge starting), or the bridge's own failure, wrapped to the view's width, with
// what it said and the two actions that help: Show log and Restart.
const { randomBytes } = require('node:crypto');

const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

const STYLE = `body { font: 13px/1.45 var(--vscode-font-family, system-ui, sans-serif); color: var(--vscode-foreground); padding: 8px 12px; }
  p, pre { white-space: pre-wrap; overflow-wrap: anywhere; }
  pre { font: 12px/1.4 var(--vscode-editor-font-family, ui-monospace, monospace); opacity: .85; max-height: 40vh; overflow: auto; }
  .failure { color: var(--vscode-errorForeground, #cf222e); font-weight: 600; }
  button { font: inherit; margin-right: 6px; padding: 3px 12px; cursor: pointer; }`;

function messageHtml(text) {
  return `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"><style>${STYLE}</style></head><body><p>${escape(text)}</p></body></html>`;
}

/** @param {{ message: string, said?: string, setting?: string }} failure */
function failureHtml(failure) {
  const nonce = randomBytes(16).toString('base64');
  const said = failure.said ? `<p>boardbridge said:</p><pre id="said">${escape(failure.said.slice(-4000))}</pre>` : '';
  const setting = failure.setting ? `<p id="setting">${escape(failure.setting)}</p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'">
<style>${STYLE}</style>
</head>
<body data-state="bridge-failed">
<p class="failure" id="failure">${escape(failure.message)}</p>
${said}${setting}
<p><button id="show-log" type="button">Show log</button><button id="restart" type="button">Restart</button></p>
<script nonce="${nonce}">
  const vscode = acquireVsCodeApi();
  document.getElementById('show-log').addEventListener('click', () => vscode.postMessage({ type: 'show_log' }));
  document.getElementById('restart').addEventListener('click', () => vscode.postMessage({ type: 'restart' }));
</script>
</body>
</html>`;
}

module.exports = { failureHtml, messageHtml };
