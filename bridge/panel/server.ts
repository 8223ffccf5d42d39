// The panel's HTTP and WebSocket server, on the loopback address only. Every
// path starts with the token (`/<token>/…`), so the page's relative URLs, the
// Monaco files and the socket all carry it without cookies.
import { promises as fs } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { packageRoot } from '../agents/resolve.js';
import { CSP_SOURCE, newToken, PanelAccess } from './access.js';
import type { PanelHub } from './panel-hub.js';
import type { ServerMessage } from './protocol.js';

export interface PanelServerOptions {
  /** The hub pages connect to (`serve --follow`: one that moves them between projects). */
  hub: Pick<PanelHub, 'connect'>;
  /** 0 (the default) picks a free port. */
  port?: number;
  token?: string;
  /**
   * CSP sources of pages that may show the panel in a frame (an IDE webview, e.g.
   * `vscode-webview:`). The framed page still needs the token; its socket has the panel's own Origin.
   */
  embedFrom?: string[];
  /**
   * Called with the number of connected pages and IDE windows whenever one connects or leaves.
   * An IDE window holds `GET /<token>/attached` open while it lives (the extension host
   * started the bridge before its view was ever shown), so `--idle-exit` counts from the
   * moment the IDE is gone, not from the bridge's start.
   */
  onPages?(count: number): void;
}

export interface PanelServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const LOOPBACK = '127.0.0.1';
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.ttf': 'font/ttf',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export function pageRoot(): string {
  return path.join(packageRoot(), 'ide-plugins', 'panel');
}

export function monacoRoot(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('monaco-editor/package.json')), 'min', 'vs');
}

/** uPlot's browser build and stylesheet, served under /uplot/ like Monaco under /vs/. */
export function uplotRoot(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('uplot/package.json')), 'dist');
}

/** Wokwi's part elements (@wokwi/elements, MIT) as one browser bundle, served under /wokwi/ for the circuit view. */
export function wokwiElementsRoot(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@wokwi/elements/package.json')), 'dist');
}

/** markdown-it's browser build (the agent's replies as markdown), served under /markdown-it/. */
export function markdownRoot(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('markdown-it/package.json')), 'dist');
}

export async function startPanelServer(options: PanelServerOptions): Promise<PanelServer> {
  const token = options.token ?? newToken();
  let port = options.port ?? 0;
  const frameAncestors = checkedSources(options.embedFrom ?? []);
  const access = new PanelAccess(token, () => port, options.embedFrom ?? []);
  const roots = { page: pageRoot(), monaco: monacoRoot(), uplot: uplotRoot(), wokwi: wokwiElementsRoot(), markdown: markdownRoot() };
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const attached = new Set<ServerResponse>();
  const connected = () => options.onPages?.(sockets.clients.size + attached.size);

  const server = http.createServer((request, response) => {
    const verdict = access.check(request, false);
    if (!verdict.ok) return refuse(response, verdict.status, verdict.reason);
    if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(response, 405, 'the panel only serves GET; answers go over the socket');
    if (verdict.rest === ATTACHED_PATH && request.method === 'GET') return holdOpen(response, attached, connected);
    void serveFile(roots, verdict.rest, port, frameAncestors, response);
  });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const verdict = access.check(request, true);
    if (!verdict.ok || verdict.rest !== '/socket') {
      const status = verdict.ok ? 404 : verdict.status;
      socket.end(`HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : 'Forbidden'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      attachPage(options.hub, ws);
      connected();
      ws.once('close', connected);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(error.code === 'EADDRINUSE' ? `port ${options.port} on ${LOOPBACK} is taken; pick another with --port, or leave it out for a free one` : error.message)),
    );
    server.listen(port, LOOPBACK, () => resolve());
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${LOOPBACK}:${port}/${token}/`,
    port,
    token,
    close: async () => {
      for (const ws of sockets.clients) ws.terminate();
      for (const response of attached) response.destroy();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The path an IDE window holds open while it lives (see `onPages`). */
const ATTACHED_PATH = '/attached';

/** Answers at once with a line, then keeps the response open; the window counts as connected until it closes. */
function holdOpen(response: ServerResponse, attached: Set<ServerResponse>, connected: () => void): void {
  response.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  response.write('attached\n');
  attached.add(response);
  connected();
  response.once('close', () => {
    attached.delete(response);
    connected();
  });
}

function attachPage(hub: PanelServerOptions['hub'], ws: WebSocket): void {
  const page = hub.connect({
    send: (message: ServerMessage) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    },
  });
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    void page.receive(data.toString());
  });
  ws.on('close', () => page.leave());
  ws.on('error', () => page.leave());
}

async function serveFile(roots: { page: string; monaco: string; uplot: string; wokwi: string; markdown: string }, rest: string, port: number, frameAncestors: string, response: ServerResponse): Promise<void> {
  let relative: string;
  try {
    relative = decodeURIComponent(rest);
  } catch {
    return refuse(response, 400, 'malformed path');
  }
  const [root, inside] = relative.startsWith('/vs/')
    ? [roots.monaco, relative.slice(4)]
    : relative.startsWith('/uplot/')
      ? [roots.uplot, relative.slice(7)]
      : relative.startsWith('/wokwi/')
        ? [roots.wokwi, relative.slice(7)]
      : relative.startsWith('/markdown-it/')
        ? [roots.markdown, relative.slice(13)]
        : [roots.page, relative === '/' ? 'index.html' : relative.slice(1)];
  const file = path.resolve(root, inside);
  if (file !== root && !file.startsWith(root + path.sep)) return refuse(response, 404, 'not found');
  let body: Buffer;
  try {
    body = await fs.readFile(file);
  } catch {
    return refuse(response, 404, `not found: ${inside}`);
  }
  response.writeHead(200, {
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'Content-Length': body.length,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Content-Security-Policy': [
      "default-src 'self'",
      "script-src 'self'",
      // Monaco sets element styles and injects its theme stylesheet at run time.
      "style-src 'self' 'unsafe-inline'",
      "font-src 'self' data:",
      "img-src 'self' data:",
      "worker-src 'self' blob:",
      `connect-src 'self' ws://${LOOPBACK}:${port} ws://localhost:${port}`,
      `frame-ancestors ${frameAncestors}`,
    ].join('; '),
  });
  response.end(body);
}

// A source list goes into a header: anything but a plain CSP source (a header
// break, a quote, a `;` that would start another directive) is refused up front.
export function checkedSources(sources: string[]): string {
  for (const source of sources) {
    if (!CSP_SOURCE.test(source)) {
      throw new Error(`--embed-from takes CSP sources like vscode-webview: or http://*.webview.localhost:* (got "${source}")`);
    }
  }
  return sources.length ? sources.join(' ') : "'none'";
}

function refuse(response: ServerResponse, status: number, reason: string): void {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(`${reason}\n`);
}
