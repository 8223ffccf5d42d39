'use strict';
// The extension's whole behaviour, given the VS Code API (the real one from
// extension.js, or a stand-in in tests): start `boardbridge serve` for the open
// sketch, show its panel in a webview, keep the bridge told about the board, port
// and unsaved buffers, and open the agent's changes in the IDE's diff view.
const { createHash } = require('node:crypto');
const { existsSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { BridgeProcess, bridgeCommand, serveArgs } = require('./bridge-process.js');
const { commandSetting, SETTING } = require('./command-setting.js');
const { failureHtml, messageHtml } = require('./failure-html.js');
const { arduinoApi, selectionFromArduino, selectionFromFolder, watchSelection } = require('./arduino-selection.js');
const { ChangeDiffs, ORIGINAL_SCHEME } = require('./change-diffs.js');
const { openAtLine } = require('./source-links.js');
const { unsavedBuffers, watchBuffers } = require('./unsaved-buffers.js');
const { webviewHtml } = require('./webview-html.js');

const VIEW_ID = 'boardbridge.panel';
/** workspaceState key: the running bridge ({ sketch, pid, url, logFile }) a reloaded window re-attaches to. */
const SAVED_BRIDGE = 'boardbridge.bridge';
/** How often the extension checks that the bridge it shows still runs. */
const BRIDGE_CHECK_MS = 2000;
/**
 * The settings `boardbridge serve` is started with: a change to one restarts the bridge (and its
 * agent) at once. boardbridge.idleExitSeconds is left out: it only matters once the IDE has gone,
 * and a restart for it would end the conversation; the next start takes it.
 */
const BRIDGE_SETTINGS = ['command', 'agent', 'agentCommand', 'embedFrom'];

class BoardbridgeExtension {
  /**
   * @param vscode the VS Code API
   * @param {{ subscriptions: { dispose(): unknown }[] }} context the extension context
   * @param {NodeJS.ProcessEnv} env the environment the bridge runs in
   */
  constructor(vscode, context, env = process.env) {
    this.vscode = vscode;
    this.context = context;
    this.env = env;
    this.selection = {};
    this.bridgeWatches = [];
    this.diffs = new ChangeDiffs(vscode, (message) => this.toPanel(message));
  }

  async start() {
    const vscode = this.vscode;
    const api = await arduinoApi(vscode);
    this.selection = api ? selectionFromArduino(api) : selectionFromFolder(vscode);
    this.context.subscriptions.push(
      vscode.window.registerWebviewViewProvider(VIEW_ID, { resolveWebviewView: (view) => this.showIn(view) }, { webviewOptions: { retainContextWhenHidden: true } }),
      vscode.workspace.registerTextDocumentContentProvider(ORIGINAL_SCHEME, this.diffs.contentProvider()),
      vscode.commands.registerCommand('boardbridge.acceptChange', () => this.diffs.decide('accept')),
      vscode.commands.registerCommand('boardbridge.rejectChange', () => this.diffs.decide('reject')),
      vscode.commands.registerCommand('boardbridge.restart', () => this.restart()),
      vscode.workspace.onDidChangeConfiguration((event) => this.onSettings(event)),
      ...watchSelection(vscode, api, (selection) => this.onSelection(selection)),
    );
    await this.startBridge();
  }

  /**
   * The extension host is going away (the IDE window closes or reloads). The bridge stays:
   * a reloaded window re-attaches to the same session, and a closed IDE leaves neither its
   * hold nor a panel connected, so the bridge stops by itself after boardbridge.idleExitSeconds.
   */
  async stop() {
    this.disposeWatches();
    this.bridge?.detach();
    this.bridge = undefined;
    this.url = undefined;
  }

  /** Restarts follow one another: a second one (another setting saved meanwhile) waits for the first. */
  restart() {
    const run = async () => {
      await this.stopBridge();
      await this.startBridge();
    };
    this.restarting = (this.restarting ?? Promise.resolve()).then(run, run);
    return this.restarting;
  }

  /** The bridge's settings as they are now, to compare with those it was started with. */
  bridgeSettings() {
    const config = this.vscode.workspace.getConfiguration('boardbridge');
    // Unset, empty and the default are one state (a host without the manifest's defaults gives undefined).
    const unset = (value) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
    return JSON.stringify(BRIDGE_SETTINGS.map((key) => (unset(config.get(key)) ? '' : config.get(key))));
  }

  /** A bridge setting changed (Settings UI, settings.json): the bridge restarts with it, unless it already runs that way. */
  onSettings(event) {
    if (!BRIDGE_SETTINGS.some((key) => event.affectsConfiguration(`boardbridge.${key}`))) return;
    if (this.bridgeSettings() === this.startedWith) return;
    return this.restart();
  }

  async startBridge() {
    const sketch = this.selection.sketch;
    if (!sketch) {
      this.problem = 'Open a sketch (or a folder) to start boardbridge.';
      return this.render();
    }
    const config = this.vscode.workspace.getConfiguration('boardbridge');
    this.startedWith = this.bridgeSettings();
    this.problem = undefined;
    this.failure = undefined;
    let configured, command, runtime;
    try {
      configured = commandSetting(config.get('command'));
      ({ command, env: runtime } = bridgeCommand(configured ?? [], this.context.extensionPath));
    } catch (error) {
      return this.failed({ message: error.message });
    }
    const args = serveArgs({
      command,
      sketch,
      board: this.selection.board,
      agent: config.get('agent', ''),
      agentCommand: config.get('agentCommand', ''),
      embedFrom: [...config.get('embedFrom', []), ...(await webHostOrigins(this.vscode))],
      idleExitSeconds: config.get('idleExitSeconds', 60),
    });
    this.url = undefined;
    this.render();
    this.bridgeSketch = sketch;
    const saved = this.context.workspaceState?.get(SAVED_BRIDGE);
    this.bridge = saved?.sketch === sketch ? await BridgeProcess.reattach(saved) : undefined;
    if (this.bridge) {
      this.url = this.bridge.url;
    } else {
      const logFile = this.logFile(sketch);
      this.bridge = new BridgeProcess({ command, args, cwd: sketch, env: { ...this.env, ...runtime, ...ideFolderVariable(this.vscode) }, logFile });
      try {
        this.url = await this.bridge.start();
        await this.context.workspaceState?.update(SAVED_BRIDGE, { sketch, ...this.bridge.saved() });
      } catch (error) {
        // The setting is named only when it is the cause: its program did not start, or was no boardbridge.
        const setting = error.commandIsCause && configured ? `Check the setting ${SETTING} (now ${JSON.stringify(configured)}).` : undefined;
        this.failed({ message: error.message, said: error.log, setting, logFile });
      }
    }
    this.bridgeWatches = watchBuffers(this.vscode, sketch, (buffers) => this.toPanel({ type: 'buffers', buffers }));
    if (this.url) {
      this.bridge.attach();
      this.bridgeWatches.push(this.watchBridge(this.bridge));
    }
    this.render();
  }

  /** A bridge that stops while its panel is shown (a crash, --idle-exit) leaves its message and Restart in the view. */
  watchBridge(bridge) {
    const timer = setInterval(() => {
      if (bridge !== this.bridge || bridge.running) return;
      clearInterval(timer);
      this.url = undefined;
      const said = bridge.logTail();
      this.failed({ message: 'boardbridge serve stopped.', said, logFile: bridge.options.logFile });
    }, BRIDGE_CHECK_MS);
    timer.unref?.();
    return { dispose: () => clearInterval(timer) };
  }

  /** Ends the bridge and its agent (restart, another sketch). */
  async stopBridge() {
    this.disposeWatches();
    await this.bridge?.stop();
    await this.context.workspaceState?.update(SAVED_BRIDGE, undefined);
    this.bridge = undefined;
    this.url = undefined;
  }

  disposeWatches() {
    for (const watch of this.bridgeWatches) watch.dispose();
    this.bridgeWatches = [];
  }

  /** The bridge's output, one file per sketch, where the IDE keeps the extension's logs. */
  logFile(sketch) {
    const dir = this.context.logUri?.fsPath ?? this.context.globalStorageUri?.fsPath ?? path.join(os.tmpdir(), 'boardbridge-extension');
    const id = createHash('sha1').update(sketch).digest('hex').slice(0, 12);
    return path.join(dir, `serve-${path.basename(sketch)}-${id}.log`);
  }

  showIn(view) {
    this.view = view;
    view.webview.options = { enableScripts: true };
    view.webview.onDidReceiveMessage((message) => this.fromPanel(message));
    this.render();
  }

  /** The bridge itself failed: the view says so, with Show log and Restart. */
  failed(failure) {
    this.failure = failure;
    void this.vscode.window.showErrorMessage(`boardbridge: ${failure.message}`);
    this.render();
  }

  render() {
    if (!this.view) return;
    if (this.url) this.view.webview.html = webviewHtml(this.url);
    else if (this.failure) this.view.webview.html = failureHtml(this.failure);
    else this.view.webview.html = messageHtml(this.problem ?? 'Starting boardbridge…');
  }

  async showLog() {
    const file = this.failure?.logFile;
    if (!file || !existsSync(file)) return void this.vscode.window.showErrorMessage('boardbridge: there is no log yet (the bridge did not start).');
    await this.vscode.window.showTextDocument(await this.vscode.workspace.openTextDocument(this.vscode.Uri.file(file)), { preview: true });
  }

  /** The panel's "Run in terminal": an install or login command of an agent it offered, in the IDE's own terminal. */
  runInTerminal({ agent, action }) {
    const choice = this.agentChoices?.find((c) => c.id === agent);
    const command = choice && (action === 'install' ? choice.install : action === 'login' ? choice.login : undefined);
    if (!command) return;
    const terminal = this.vscode.window.createTerminal({ name: `${choice.title}: ${action === 'login' ? 'log in' : 'install'}`, cwd: this.bridgeSketch });
    terminal.show();
    terminal.sendText(command);
  }

  /** The agent picked on the panel started: it is the one to start from now on. */
  async rememberAgent(agent) {
    const config = this.vscode.workspace.getConfiguration('boardbridge');
    const global = this.vscode.ConfigurationTarget?.Global ?? true;
    // The bridge already runs the picked agent: writing the pick is no reason to restart it.
    const running = JSON.parse(this.bridgeSettings());
    running[BRIDGE_SETTINGS.indexOf('agent')] = agent;
    running[BRIDGE_SETTINGS.indexOf('agentCommand')] = '';
    this.startedWith = JSON.stringify(running);
    await config.update('agent', agent, global);
    // A command line would win over the pick next time.
    if (config.get('agentCommand', '')) await config.update('agentCommand', '', global);
  }

  // The page sends its reviews on every (re)connect: then it also needs the IDE's state again.
  fromPanel(message) {
    if (message?.type === 'show_log') return this.showLog();
    if (message?.type === 'restart') return this.restart();
    if (message?.type === 'agent_unavailable') return void (this.agentChoices = message.choices);
    if (message?.type === 'run_in_terminal') return this.runInTerminal(message);
    if (message?.type === 'agent_chosen' && typeof message.agent === 'string') return this.rememberAgent(message.agent);
    if (message?.type === 'open_file') return this.bridgeSketch ? openAtLine(this.vscode, this.bridgeSketch, message) : undefined;
    if (message?.type === 'apply_write') return this.diffs.applyWrite(message).then((ok) => this.toPanel({ type: 'write_applied', id: message.id, ok }));
    if (message?.type === 'reviews') {
      // This page's agent writes come through the editor, so the IDE's undo can take them back.
      this.toPanel({ type: 'editor' });
      this.toPanel(selectionMessage(this.selection));
      if (this.bridgeSketch) this.toPanel({ type: 'buffers', buffers: unsavedBuffers(this.vscode, this.bridgeSketch) });
    }
    return this.diffs.receive(message);
  }

  toPanel(message) {
    void this.view?.webview.postMessage({ type: 'boardbridge-send', message });
  }

  async onSelection(selection) {
    if (!selection.sketch) return;
    this.selection = selection;
    if (selection.sketch !== this.bridgeSketch) return this.restart();
    this.toPanel(selectionMessage(selection));
  }
}

/**
 * Arduino IDE 2.x keeps its arduino-cli in <install>/resources/app/lib/backend/resources, and
 * the extension host's appRoot is <install>/resources/app: the bridge compiles and uploads
 * with that same arduino-cli (and the IDE's configuration) when none is on PATH.
 */
function ideFolderVariable(vscode) {
  const appRoot = vscode.env?.appRoot;
  if (!appRoot || !existsSync(path.join(appRoot, 'lib', 'backend', 'resources'))) return {};
  return { BOARDBRIDGE_ARDUINO_IDE: path.resolve(appRoot, '..', '..') };
}

/**
 * In a VS Code that runs in the browser (code-server, VS Code Web) the webview's frames are
 * pages of the origin the person opened the workbench at, which the extension host (on the
 * server) cannot see: `asExternalUri` of the IDE's own URI scheme answers with a URL on that
 * origin (the workbench's URL-callback route). On the desktop, and in Arduino IDE 2.x, the
 * boardbridge.embedFrom default already names the webview origins.
 */
async function webHostOrigins(vscode) {
  if (!vscode.UIKind || vscode.env?.uiKind !== vscode.UIKind.Web) return [];
  const external = await vscode.env.asExternalUri(vscode.Uri.parse(`${vscode.env.uriScheme}://boardbridge.boardbridge-arduino/frame`));
  return [`${external.scheme}://${external.authority}`];
}

/** The board, port and the IDE's build facts, as the bridge's `selection` message. */
function selectionMessage(selection) {
  return { type: 'selection', board: selection.board, port: selection.port, ...(selection.arduinoIde ? { arduinoIde: selection.arduinoIde } : {}) };
}

module.exports = { BoardbridgeExtension, VIEW_ID };
