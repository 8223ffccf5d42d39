// Who may load the panel and open its socket: the token, the Host, and the Origin —
// the panel itself, or (for page loads only) a page allowed to frame it.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { PanelAccess, sourceMatches } from '../../bridge/panel/access.js';

const TOKEN = 'tok_abcdefghijklmnopqrstuvwx';
const request = (headers: Record<string, string>, url = `/${TOKEN}/`) => ({ url, headers }) as unknown as IncomingMessage;

describe('CSP source expressions matched against an Origin', () => {
  it('matches schemes, wildcard hosts and ports as frame-ancestors does', () => {
    expect(sourceMatches('vscode-webview:', 'vscode-webview://1a2b3c')).toBe(true);
    expect(sourceMatches('http://*.webview.localhost:*', 'http://4d2f7a9e.webview.localhost:39707')).toBe(true);
    expect(sourceMatches('http://*.webview.localhost:*', 'http://webview.localhost:39707')).toBe(false);
    expect(sourceMatches('http://*.webview.localhost:*', 'http://evil.example/.webview.localhost')).toBe(false);
    expect(sourceMatches('http://*.webview.localhost:*', 'https://a.webview.localhost:1')).toBe(false);
    expect(sourceMatches('vscode-file://vscode-app', 'vscode-file://vscode-app')).toBe(true);
    expect(sourceMatches('vscode-file://vscode-app', 'vscode-file://other')).toBe(false);
    expect(sourceMatches('http://localhost:8080', 'http://localhost:8081')).toBe(false);
    expect(sourceMatches('file:', 'null')).toBe(false);
  });
});

describe('the panel access check', () => {
  const access = new PanelAccess(TOKEN, () => 4000, ['http://*.webview.localhost:*', 'vscode-webview:']);
  const host = { host: '127.0.0.1:4000' };

  it('lets a page that may frame the panel load it, but never open its socket', () => {
    expect(access.check(request({ ...host, origin: 'http://4d2f.webview.localhost:39707' }), false)).toEqual({ ok: true, rest: '/' });
    expect(access.check(request({ ...host, origin: 'vscode-webview://1a2b3c' }), false)).toEqual({ ok: true, rest: '/' });
    expect(access.check(request({ ...host, origin: 'http://4d2f.webview.localhost:39707' }, `/${TOKEN}/socket`), true)).toMatchObject({ ok: false, status: 403 });
    expect(access.check(request({ ...host, origin: 'http://127.0.0.1:4000' }, `/${TOKEN}/socket`), true)).toEqual({ ok: true, rest: '/socket' });
  });

  it('refuses any other Origin, and still needs the token and the Host', () => {
    expect(access.check(request({ ...host, origin: 'http://attacker.example' }), false)).toMatchObject({ ok: false, status: 403 });
    expect(access.check(request({ ...host, origin: 'http://4d2f.webview.localhost:39707' }, '/'), false)).toMatchObject({ ok: false, status: 403 });
    expect(access.check(request({ host: 'attacker.example:4000', origin: 'vscode-webview://1a2b3c' }), false)).toMatchObject({ ok: false, status: 403 });
  });
});
