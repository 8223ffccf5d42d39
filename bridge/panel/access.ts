// Who may talk to the panel: the token in the URL path on every request, a Host
// header naming the loopback address we listen on (a DNS-rebinding page sends its
// own host name) and, when a browser sends one, an Origin that is the panel itself
// (so no other web page can drive the bridge through the socket). Pages that may
// frame the panel (`--embed-from`) may also load its pages: Chromium sends the
// embedding webview's Origin when it navigates a cross-site frame.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export type AccessVerdict = { ok: true; rest: string } | { ok: false; status: number; reason: string };

export class PanelAccess {
  private readonly token: Buffer;

  constructor(
    token: string,
    private readonly port: () => number,
    /** CSP source expressions of the pages that may frame the panel. */
    private readonly embedders: string[] = [],
  ) {
    this.token = Buffer.from(token);
  }

  /** Checks a request; on success `rest` is the URL path after `/<token>`. */
  check(request: IncomingMessage, socket: boolean): AccessVerdict {
    const host = request.headers.host ?? '';
    if (!this.hosts().includes(host.toLowerCase())) {
      return { ok: false, status: 403, reason: `Host "${host}" is not this panel (only ${this.hosts()[0]})` };
    }
    const origin = request.headers.origin;
    if (socket && !origin) return { ok: false, status: 403, reason: 'a socket needs an Origin header' };
    const embedding = !socket && origin !== undefined && this.embedders.some((source) => sourceMatches(source, origin));
    if (origin !== undefined && !embedding && !this.origins().includes(origin.toLowerCase())) {
      return { ok: false, status: 403, reason: `Origin "${origin}" may not use this panel` };
    }
    const url = request.url ?? '/';
    const pathOnly = url.split('?')[0];
    const slash = pathOnly.indexOf('/', 1);
    const given = Buffer.from(slash === -1 ? pathOnly.slice(1) : pathOnly.slice(1, slash));
    if (given.length !== this.token.length || !timingSafeEqual(given, this.token)) {
      return { ok: false, status: 403, reason: 'the URL lacks the panel token; open the URL boardbridge serve printed' };
    }
    return { ok: true, rest: slash === -1 ? '/' : pathOnly.slice(slash) };
  }

  private hosts(): string[] {
    return [`127.0.0.1:${this.port()}`, `localhost:${this.port()}`];
  }

  private origins(): string[] {
    return this.hosts().map((h) => `http://${h}`);
  }
}

/** A CSP source expression as --embed-from takes it: `scheme:` or `scheme://host[:port]`, `*` wildcards in host and port. */
export const CSP_SOURCE = /^([a-z][a-z0-9+.-]*):(?:\/\/([\w*.-]+)(?::(\d+|\*))?)?$/i;

/**
 * Whether an Origin matches a CSP source expression as `frame-ancestors` would: a
 * scheme alone (`vscode-webview:`), or scheme://host[:port] with `*.` host and `*` port
 * wildcards (`http://*.webview.localhost:*`).
 */
export function sourceMatches(source: string, origin: string): boolean {
  const s = CSP_SOURCE.exec(source);
  const o = /^([a-z][a-z0-9+.-]*):\/\/([^:/]+)(?::(\d+))?$/i.exec(origin);
  if (!s || !o) return false;
  const [, scheme, host, port] = s;
  if (scheme.toLowerCase() !== o[1].toLowerCase()) return false;
  if (host === undefined) return true;
  const wanted = host.toLowerCase();
  const given = o[2].toLowerCase();
  const hostOk = wanted.startsWith('*.') ? given.endsWith(wanted.slice(1)) && given.length > wanted.length - 1 : given === wanted;
  return hostOk && (port === '*' || (port ?? '') === (o[3] ?? ''));
}
