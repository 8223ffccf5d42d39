'use strict';
// The webview shows the bridge's own panel in a frame and relays messages between
// the panel page and the extension: the page never speaks to VS Code directly, and
// only the frame's page (by its window and origin) is listened to. The page is on another
// origin, so the IDE's theme (the --vscode-* variables VS Code sets on the webview's <html>,
// and the body's vscode-light / vscode-dark / vscode-high-contrast class) is passed down to it,
// again whenever the person changes theme.
const { randomBytes } = require('node:crypto');

/** @param {string} panelUrl the URL `boardbridge serve` printed (it carries the token) */
function webviewHtml(panelUrl) {
  const origin = new URL(panelUrl).origin;
  const nonce = randomBytes(16).toString('base64');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; frame-src ${origin}; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'">
<style>html, body, iframe { margin: 0; padding: 0; border: 0; width: 100%; height: 100%; overflow: hidden; }</style>
</head>
<body>
<iframe id="panel" src="${panelUrl}" title="boardbridge" allow="clipboard-read; clipboard-write"></iframe>
<script nonce="${nonce}">
  const vscode = acquireVsCodeApi();
  const frame = document.getElementById('panel');
  const panelOrigin = ${JSON.stringify(origin)};
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (event.source === frame.contentWindow) {
      if (event.origin === panelOrigin && data && data.type === 'boardbridge-message') vscode.postMessage(data.message);
    } else if (data && data.type === 'boardbridge-send') {
      frame.contentWindow.postMessage(data, panelOrigin);
    }
  });
  function sendTheme() {
    const vars = {};
    const style = document.documentElement.style;
    for (let i = 0; i < style.length; i++) {
      const name = style[i];
      if (name.startsWith('--vscode-')) vars[name] = style.getPropertyValue(name).trim();
    }
    const kind = ['vscode-high-contrast-light', 'vscode-high-contrast', 'vscode-dark', 'vscode-light'].find((c) => document.body.classList.contains(c));
    frame.contentWindow.postMessage({ type: 'boardbridge-theme', kind, vars }, panelOrigin);
  }
  frame.addEventListener('load', sendTheme);
  new MutationObserver(sendTheme).observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
  new MutationObserver(sendTheme).observe(document.body, { attributes: true, attributeFilter: ['class'] });
</script>
</body>
</html>`;
}

module.exports = { webviewHtml };
