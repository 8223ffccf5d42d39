// A stand-in for the parts of the VS Code API and the Arduino IDE's
// `vscode-arduino-api` that the extension uses (the real IDE cannot run here).
// Its webview is a real Chromium page, so the extension's HTML, the framed panel
// and the message relay all run for real.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';

type Listener<T> = (value: T) => unknown;

export class StandInEmitter<T> {
  private readonly listeners = new Set<Listener<T>>();
  readonly event = (listener: Listener<T>) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  fire(value: T): void {
    for (const listener of this.listeners) listener(value);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

export interface StandInUri {
  scheme: string;
  path: string;
  fsPath: string;
}

const uri = (scheme: string, path: string): StandInUri => ({ scheme, path, fsPath: path });

export interface StandInDocument {
  uri: StandInUri;
  isDirty: boolean;
  getText(): string;
}

export class StandInPosition {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class StandInRange {
  constructor(
    readonly start: StandInPosition,
    readonly end: StandInPosition,
  ) {}
}

export class StandInWorkspaceEdit {
  readonly replacements: { uri: StandInUri; range: StandInRange; text: string }[] = [];
  replace(uri: StandInUri, range: StandInRange, text: string): void {
    this.replacements.push({ uri, range, text });
  }
}

/** An open editor document: edits change its text (each remembered, as the IDE's undo would) until it is saved. */
export class StandInTextDocument implements StandInDocument {
  readonly uri: StandInUri;
  /** The texts edits replaced, newest last: what undo would bring back. */
  readonly undoHistory: string[] = [];

  constructor(
    path: string,
    private text: string,
    public isDirty = false,
  ) {
    this.uri = uri('file', path);
  }

  getText(): string {
    return this.text;
  }

  positionAt(offset: number): StandInPosition {
    const before = this.text.slice(0, offset).split('\n');
    return new StandInPosition(before.length - 1, before[before.length - 1].length);
  }

  offsetAt(position: StandInPosition): number {
    const lines = this.text.split('\n');
    return lines.slice(0, position.line).reduce((sum, line) => sum + line.length + 1, 0) + position.character;
  }

  replace(range: StandInRange, text: string): void {
    this.undoHistory.push(this.text);
    this.text = this.text.slice(0, this.offsetAt(range.start)) + text + this.text.slice(this.offsetAt(range.end));
    this.isDirty = true;
  }

  async save(): Promise<boolean> {
    writeFileSync(this.uri.fsPath, this.text);
    this.isDirty = false;
    return true;
  }
}

/**
 * The Arduino IDE's context as `vscode-arduino-api` 0.1.2 exports it — the version
 * every Arduino IDE from 2.2 bundles: flat properties and one event per property,
 * fired after the value changed. Like the IDE, `fqbn` carries no board options (they
 * are the selected values in `boardDetails.configOptions`), and a board change sends
 * the new `fqbn` before the new `boardDetails`.
 */
export class StandInArduino {
  sketchPath: string | undefined;
  fqbn: string | undefined;
  boardDetails: StandInBoardDetails | undefined;
  port: { address: string; protocol: string; label: string; hardwareId: string; properties: Record<string, string> } | undefined;
  compileSummary: unknown;
  dataDirPath: string | undefined;
  userDirPath: string | undefined;
  private readonly emitters = new Map<string, StandInEmitter<unknown>>();

  constructor(o: { sketchPath: string; fqbn: string; boardDetails?: StandInBoardDetails; port?: string; dataDirPath?: string; userDirPath?: string }) {
    this.sketchPath = o.sketchPath;
    this.fqbn = o.fqbn;
    this.boardDetails = o.boardDetails;
    this.port = o.port ? { address: o.port, protocol: 'serial', label: o.port, hardwareId: '', properties: {} } : undefined;
    this.dataDirPath = o.dataDirPath;
    this.userDirPath = o.userDirPath;
  }

  onDidChange(property: string): StandInEmitter<unknown>['event'] {
    let emitter = this.emitters.get(property);
    if (!emitter) this.emitters.set(property, (emitter = new StandInEmitter<unknown>()));
    return emitter.event;
  }

  /** What the IDE's `arduinoAPI.updateState` does: store the value, then fire that property's event. */
  update(property: 'sketchPath' | 'fqbn' | 'boardDetails' | 'port' | 'compileSummary', value: unknown): void {
    (this as unknown as Record<string, unknown>)[property] = value;
    this.emitters.get(property)?.fire(value);
  }
}

/** `BoardDetails` of vscode-arduino-api 0.1.2 (no name, build properties as a record). */
export interface StandInBoardDetails {
  fqbn: string;
  buildProperties: Record<string, string>;
  configOptions: { option: string; optionLabel: string; values: { value: string; valueLabel: string; selected: boolean }[] }[];
  programmers: { platform: string; id: string; name: string }[];
  toolsDependencies: { name: string; version: string; packager: string }[];
}

export interface ContentProvider {
  provideTextDocumentContent(uri: StandInUri): string;
}

export interface StandInVscode {
  api: Record<string, unknown>;
  executed: unknown[][];
  errors: string[];
  documents: StandInDocument[];
  documentChanged: StandInEmitter<unknown>;
  contentProviders: Map<string, ContentProvider>;
  commands: Map<string, (...args: unknown[]) => unknown>;
  /** Every WorkspaceEdit applied, in order. */
  appliedEdits: StandInWorkspaceEdit[];
  /** Every showTextDocument call: the document and its options. */
  shown: { document: StandInDocument; options?: { selection?: StandInRange; preview?: boolean } }[];
  /** Every configuration update: key (without the boardbridge. prefix), value, target. */
  configUpdates: [string, unknown, unknown][];
  /** Terminals the extension opened, with the lines it typed into them. */
  terminals: { name: string; cwd?: string; sent: string[]; shown: boolean }[];
  viewProvider(): { resolveWebviewView(view: unknown): void } | undefined;
  setActiveEditor(path: string | undefined): void;
}

export function standInVscode(options: { folder?: string; arduino?: StandInArduino; config: Record<string, unknown>; appRoot?: string }): StandInVscode {
  const documents: StandInDocument[] = [];
  const documentChanged = new StandInEmitter<unknown>();
  const saved = new StandInEmitter<unknown>();
  const closed = new StandInEmitter<unknown>();
  const configChanged = new StandInEmitter<{ affectsConfiguration(section: string): boolean }>();
  const contentProviders = new Map<string, ContentProvider>();
  const commands = new Map<string, (...args: unknown[]) => unknown>();
  const executed: unknown[][] = [];
  const errors: string[] = [];
  const appliedEdits: StandInWorkspaceEdit[] = [];
  const shown: StandInVscode['shown'] = [];
  const configUpdates: StandInVscode['configUpdates'] = [];
  const terminals: StandInVscode['terminals'] = [];
  const openTextDocument = async (at: StandInUri) => {
    const open = documents.find((d) => d.uri.fsPath === at.fsPath);
    if (open) return open;
    const document = new StandInTextDocument(at.fsPath, readFileSync(at.fsPath, 'utf8'));
    documents.push(document);
    return document;
  };
  const window = {
    activeTextEditor: undefined as { document: { uri: StandInUri } } | undefined,
    registerWebviewViewProvider: (id: string, provider: { resolveWebviewView(view: unknown): void }) => {
      providers.set(id, provider);
      return { dispose: () => providers.delete(id) };
    },
    showErrorMessage: async (message: string) => void errors.push(message),
    showInformationMessage: async (message: string) => void errors.push(message),
    showTextDocument: async (document: StandInDocument, options?: StandInVscode['shown'][number]['options']) => void shown.push({ document, options }),
    createTerminal: (o: { name: string; cwd?: string }) => {
      const terminal = { name: o.name, cwd: o.cwd, sent: [] as string[], shown: false };
      terminals.push(terminal);
      return { show: () => void (terminal.shown = true), sendText: (text: string) => void terminal.sent.push(text), dispose: () => undefined };
    },
  };
  const providers = new Map<string, { resolveWebviewView(view: unknown): void }>();
  const api = {
    // Arduino IDE 2.x is a desktop app (Theia's env.uiKind is UIKind.Desktop there).
    env: { appRoot: options.appRoot ?? '/nonexistent/resources/app', uiKind: 1 },
    UIKind: { Desktop: 1, Web: 2 },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    EventEmitter: StandInEmitter,
    Position: StandInPosition,
    Range: StandInRange,
    WorkspaceEdit: StandInWorkspaceEdit,
    Uri: { file: (path: string) => uri('file', path), from: (parts: { scheme: string; path: string }) => uri(parts.scheme, parts.path) },
    extensions: {
      getExtension: (id: string) => (id === 'dankeboy36.vscode-arduino-api' && options.arduino ? { isActive: true, exports: options.arduino } : undefined),
    },
    workspace: {
      workspaceFolders: options.folder ? [{ uri: uri('file', options.folder) }] : undefined,
      textDocuments: documents,
      onDidChangeTextDocument: documentChanged.event,
      onDidSaveTextDocument: saved.event,
      onDidCloseTextDocument: closed.event,
      registerTextDocumentContentProvider: (scheme: string, provider: ContentProvider) => {
        contentProviders.set(scheme, provider);
        return { dispose: () => contentProviders.delete(scheme) };
      },
      openTextDocument,
      applyEdit: async (edit: StandInWorkspaceEdit) => {
        for (const { uri: at, range, text } of edit.replacements) {
          const document = await openTextDocument(at);
          if (!(document instanceof StandInTextDocument)) return false;
          document.replace(range, text);
        }
        appliedEdits.push(edit);
        documentChanged.fire({});
        return true;
      },
      getConfiguration: () => ({
        get: (key: string, fallback: unknown) => options.config[key] ?? fallback,
        update: async (key: string, value: unknown, target: unknown) => {
          configUpdates.push([key, value, target]);
          options.config[key] = value;
          configChanged.fire({ affectsConfiguration: (section: string) => section === 'boardbridge' || section === `boardbridge.${key}` });
        },
      }),
      // Theia's plugin API has it as VS Code's does (workspace.onDidChangeConfiguration).
      onDidChangeConfiguration: configChanged.event,
    },
    window,
    commands: {
      registerCommand: (id: string, run: (...args: unknown[]) => unknown) => {
        commands.set(id, run);
        return { dispose: () => commands.delete(id) };
      },
      executeCommand: async (id: string, ...args: unknown[]) => {
        executed.push([id, ...args]);
        return commands.get(id)?.(...args);
      },
    },
  };
  return {
    api,
    executed,
    errors,
    documents,
    documentChanged,
    contentProviders,
    commands,
    appliedEdits,
    shown,
    configUpdates,
    terminals,
    viewProvider: () => providers.get('boardbridge.panel'),
    setActiveEditor: (path) => (window.activeTextEditor = path ? { document: { uri: uri('file', path) } } : undefined),
  };
}

/**
 * A webview view whose HTML is shown in a real Chromium page at its own origin, with
 * `acquireVsCodeApi` wired to the extension's message handler.
 */
export class StandInWebview {
  readonly posted: unknown[] = [];
  private handler?: (message: unknown) => unknown;
  private html = '';
  private server?: Server;
  origin = '';

  constructor(private readonly page: Page) {}

  async listen(): Promise<void> {
    this.server = createServer((_, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(this.html);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://localhost:${(this.server!.address() as AddressInfo).port}`;
    await this.page.exposeFunction('__standInToExtension', (message: unknown) => this.handler?.(message));
    await this.page.addInitScript(() => {
      const w = window as unknown as { acquireVsCodeApi: () => unknown; __standInToExtension: (m: unknown) => void };
      w.acquireVsCodeApi = () => ({ postMessage: (m: unknown) => w.__standInToExtension(m) });
    });
  }

  /** The `WebviewView` handed to the extension's provider. */
  view() {
    const self = this;
    return {
      webview: {
        options: {},
        get html() {
          return self.html;
        },
        set html(value: string) {
          self.html = value;
          void self.page.goto(`${self.origin}/`).catch(() => undefined);
        },
        onDidReceiveMessage: (handler: (message: unknown) => unknown) => {
          self.handler = handler;
          return { dispose: () => (self.handler = undefined) };
        },
        postMessage: async (message: unknown) => {
          self.posted.push(message);
          await self.page.evaluate((m) => window.postMessage(m, '*'), message).catch(() => undefined);
          return true;
        },
      },
    };
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
