// The IDE's theme inside this page: the webview around the panel's frame sends its
// --vscode-* variables and its kind (light, dark, high contrast); panel.css reads them.
// In a plain browser the system's colour scheme decides.
const KINDS = { 'vscode-light': 'light', 'vscode-dark': 'dark', 'vscode-high-contrast': 'hc', 'vscode-high-contrast-light': 'hc-light' };
const listeners = [];

/** Applies a theme message `{ kind, vars }` from the IDE's webview. */
export function applyTheme({ kind, vars }) {
  const root = document.documentElement;
  for (const name of [...root.style]) if (name.startsWith('--vscode-')) root.style.removeProperty(name);
  for (const [name, value] of Object.entries(vars ?? {})) {
    if (/^--vscode-[\w-]+$/.test(name) && typeof value === 'string' && !/[;{}]/.test(value)) root.style.setProperty(name, value);
  }
  const theme = KINDS[kind];
  if (theme) document.body.dataset.theme = theme;
  else delete document.body.dataset.theme;
  for (const listener of listeners) listener();
}

/** 'light', 'dark', 'hc' or 'hc-light': what the IDE said, else the system's scheme. */
export function themeKind() {
  return document.body.dataset.theme ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
}

export function monacoTheme() {
  return { light: 'vs', dark: 'vs-dark', hc: 'hc-black', 'hc-light': 'hc-light' }[themeKind()];
}

/** `listener()` after every theme change (the IDE's or the system's). */
export function onThemeChange(listener) {
  listeners.push(listener);
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', listener);
}
