// The Arduino IDE 2.x / VS Code extension's logic, run against a stand-in for the
// VS Code and Arduino APIs (the real IDE cannot run here). Everything behind the
// stand-in is real: `boardbridge serve` with the claude-code-acp agent offline,
// and the webview in headless Chromium with the panel in its frame.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLaunch } from '../support/agents.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { cliMain, repoRoot, tempSketch } from '../e2e/run-cli.js';
import { BROKEN } from '../rig/sketches.js';
import { launchChromium, screenshot } from './browser.js';
import { agentChildren } from './serve-process.js';
import { discoverPlatforms } from '../../platform/arduino/platforms.js';
import { resolveFqbn } from '../../platform/arduino/resolve.js';
import { StandInArduino, standInVscode, StandInTextDocument, StandInWebview, type StandInBoardDetails, type StandInVscode } from './vscode-stand-in.js';
import { alive } from '../support/process-alive.js';
import { until as untilDone } from '../support/until.js';

// The view, the panel and the bridge behind it start in an extension host beside the rest of the suite.
const until = <T>(what: string, check: () => T | undefined | false) => untilDone(what, check, { timeoutMs: 45_000, stepMs: 50 });

const extensionDir = path.join(repoRoot, 'ide-plugins', 'arduino-extension');
const load = createRequire(import.meta.url);
const { BoardbridgeExtension } = load(path.join(extensionDir, 'src', 'boardbridge-extension.js')) as {
  BoardbridgeExtension: new (vscode: unknown, context: { subscriptions: unknown[] }, env: NodeJS.ProcessEnv) => ExtensionUnderTest;
};
const { selectionFromFolder, selectionFromArduino } = load(path.join(extensionDir, 'src', 'arduino-selection.js')) as {
  selectionFromFolder: (vscode: unknown) => { sketch?: string; board?: string; port?: string };
  selectionFromArduino: (api: unknown) => { sketch?: string; board?: string; port?: string; arduinoIde?: Record<string, unknown> };
};

/**
 * Board details as the IDE gets them from arduino-cli for the installed platform (here
 * Debian's): expanded build properties and every menu with the selected value.
 */
async function boardDetails(fqbnWithOptions: string): Promise<StandInBoardDetails> {
  const board = resolveFqbn(fqbnWithOptions, await discoverPlatforms({ dataDirs: [], sketchbookDirs: [] }));
  return {
    fqbn: `${board.vendor}:${board.architecture}:${board.boardId}`,
    buildProperties: Object.fromEntries([...board.properties.keys()].map((key) => [key, board.expanded(key) ?? ''])),
    configOptions: [...board.board.menus].map(([option, values]) => ({
      option,
      optionLabel: board.options.find((o) => o.option === option)?.optionLabel ?? option,
      values: [...values].map(([value, valueLabel]) => ({ value, valueLabel, selected: board.options.some((o) => o.option === option && o.value === value) })),
    })),
    programmers: [],
    toolsDependencies: [],
  };
}

interface ExtensionUnderTest {
  start(): Promise<void>;
  stop(): Promise<void>;
  url?: string;
  bridge?: { pid?: number };
}

/** What VS Code gives an extension: its subscriptions, a workspace memento that outlives a window reload, a log folder. */
function standInContext(logDir: string) {
  const memento = new Map<string, unknown>();
  return {
    subscriptions: [] as unknown[],
    workspaceState: { get: (key: string) => memento.get(key), update: async (key: string, value: unknown) => void memento.set(key, value) },
    logUri: { fsPath: logDir },
  };
}

/** The bridge's log file, from what the extension remembered for re-attaching. */
const logOf = (c: ReturnType<typeof standInContext>) => (c.workspaceState.get('boardbridge.bridge') as { logFile: string } | undefined)?.logFile ?? '';


const WAIT = { timeout: 45_000 };
/** boardbridge.idleExitSeconds here: short, so the test of the bridge stopping by itself is quick. */
const IDLE_EXIT_SECONDS = 3;
const FADE = 'void setup() {}\nvoid loop() { analogWrite(9, 100); }\n';
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

let model: ModelServer;
let browser: Browser;
let page: Page;
let webview: StandInWebview;
let vscode: StandInVscode;
let arduino: StandInArduino;
let extension: ExtensionUnderTest;
let ino: string;
let original: string;
let context: ReturnType<typeof standInContext>;
let ideFolder: string;
let extensionEnv: NodeJS.ProcessEnv;

function panelFrame(): Frame {
  const frame = page.frames().find((f) => f.url().includes('127.0.0.1'));
  if (!frame) throw new Error(`the webview shows no panel frame (frames: ${page.frames().map((f) => f.url()).join(', ')})`);
  return frame;
}

beforeAll(async () => {
  const temp = tempSketch();
  ino = temp.ino;
  original = readFileSync(ino, 'utf8');
  model = await startModelServer({
    turns: [
      { whenUserSays: 'read the sketch', replies: [{ tool: { claude: { name: 'Read', input: { file_path: ino } } } }, { say: 'It blinks pin 7.' }] },
      { whenUserSays: 'fade', replies: [{ tool: { claude: { name: 'Write', input: { file_path: ino, content: FADE } } } }, { say: 'It fades now.' }] },
      { whenUserSays: 'how full', replies: [{ say: 'The last build does not fit.' }] },
      {
        // Not just 'compile': the board context now mentions the IDE's last compile.
        whenUserSays: 'compile the sketch',
        replies: [{ tool: { claude: { name: 'mcp__boardbridge__compile', input: { sketch: temp.sketch, fqbn: 'arduino:avr:uno' } } } }, { say: 'Line 6 does not build.' }],
      },
    ],
  });
  const launch = agentLaunch('claude-code-acp', model.url, temp.root);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 900, height: 800 } });
  webview = new StandInWebview(page);
  await webview.listen();
  arduino = new StandInArduino({ sketchPath: temp.sketch, fqbn: 'arduino:avr:uno', boardDetails: await boardDetails('arduino:avr:uno'), port: '/dev/ttyACM0' });
  // An IDE install folder with the place Arduino IDE 2.x keeps its arduino-cli (the extension host's appRoot is <install>/resources/app).
  ideFolder = path.join(temp.root, 'arduino-ide');
  mkdirSync(path.join(ideFolder, 'resources', 'app', 'lib', 'backend', 'resources'), { recursive: true });
  vscode = standInVscode({
    appRoot: path.join(ideFolder, 'resources', 'app'),
    arduino,
    config: {
      command: [process.execPath, cliMain],
      agentCommand: [launch.command, ...launch.args].map(quote).join(' '),
      embedFrom: [webview.origin],
      idleExitSeconds: IDLE_EXIT_SECONDS,
    },
  });
  context = standInContext(path.join(temp.root, 'extension-logs'));
  extensionEnv = { ...launch.env, BOARDBRIDGE_STATE_DIR: path.join(temp.root, 'state') };
  extension = new BoardbridgeExtension(vscode.api, context, extensionEnv);
  await extension.start();
});

afterAll(async () => {
  const pid = extension?.bridge?.pid;
  await extension?.stop();
  if (pid && alive(pid)) process.kill(pid, 'SIGTERM');
  await browser?.close();
  await webview?.close();
  await model?.close();
});

describe('the Arduino IDE extension, against a stand-in for the VS Code and Arduino APIs', () => {
  it('keeps the bridge running while the IDE window lives, its view not yet shown, past boardbridge.idleExitSeconds (stand-in)', async () => {
    // The extension starts the bridge when it activates; the person may open the view much later.
    const pid = extension.bridge!.pid!;
    await new Promise((resolve) => setTimeout(resolve, (IDLE_EXIT_SECONDS + 1) * 1000));
    expect(alive(pid)).toBe(true);
    expect(readFileSync(logOf(context), 'utf8')).not.toContain('boardbridge serve stops');
  });

  it('starts boardbridge serve for the IDE\'s sketch and shows its panel, with the IDE\'s board, in the view (stand-in)', async () => {
    vscode.viewProvider()!.resolveWebviewView(webview.view());
    await until('the panel frame', () => page.frames().some((f) => f.url().includes('127.0.0.1')));
    const frame = panelFrame();
    await frame.waitForSelector('body[data-ready="true"]', WAIT);
    expect(await frame.textContent('#agent')).toMatch(/claude/i);
    await frame.click('#tabs button[data-tab="board"]');
    await frame.waitForSelector('#board-name:has-text("arduino:avr:uno")', WAIT);
    expect(extension.bridge?.pid && agentChildren(extension.bridge.pid)).toBe(1);
    // The bridge is told where the IDE is installed, to use the IDE's own arduino-cli.
    expect(readFileSync(`/proc/${extension.bridge!.pid}/environ`, 'utf8').split('\0')).toContain(`BOARDBRIDGE_ARDUINO_IDE=${ideFolder}`);
  });

  it('follows the board and its options as the IDE reports them: fqbn first, then the board details (stand-in)', async () => {
    arduino.update('fqbn', 'arduino:avr:nano');
    const frame = panelFrame();
    // The details still describe the Uno: the Nano's default options until its own details arrive.
    await frame.waitForSelector('#board-name:has-text("arduino:avr:nano,")', WAIT);
    arduino.update('boardDetails', await boardDetails('arduino:avr:nano:cpu=atmega328old'));
    await frame.waitForSelector('#board-name:has-text("arduino:avr:nano:cpu=atmega328old")', WAIT);
    expect(await frame.textContent('#board-name')).toContain('Nano');
    await screenshot(page, 'extension-webview-board');
  });

  it("gives the agent the IDE's last compile, checked against the board, and shows it on the Board tab (stand-in)", async () => {
    // What arduino-cli reports after Verify, as the IDE passes it on (0.1.2 CompileSummary).
    arduino.update('compileSummary', {
      buildPath: '/tmp/arduino/sketches/4F2D1C0B',
      executableSectionsSize: [
        { name: 'text', size: 31022, maxSize: 30720 },
        { name: 'data', size: 412, maxSize: 2048 },
      ],
      usedLibraries: [{ name: 'Servo', version: '1.2.2', installDir: '/home/anna/Arduino/libraries/Servo', sourceDir: '/home/anna/Arduino/libraries/Servo/src', location: 1 }],
      boardPlatform: { id: 'arduino:avr', version: '1.8.6', installDir: '/home/anna/.arduino15/packages/arduino/hardware/avr/1.8.6', packageUrl: '' },
      buildPlatform: { id: 'arduino:avr', version: '1.8.6', installDir: '/home/anna/.arduino15/packages/arduino/hardware/avr/1.8.6', packageUrl: '' },
      buildProperties: {},
    });
    const frame = panelFrame();
    await frame.waitForSelector('#board-notes li.note:has-text("flash 31022 of 30720 bytes")', WAIT);
    expect(await frame.textContent('#board-notes')).toContain('Sketch uses 31022 bytes of flash');
    await frame.fill('#prompt', 'how full is the flash?');
    await frame.press('#prompt', 'Enter');
    await frame.waitForSelector('#log .msg.agent:has-text("does not fit")', WAIT);
    const asked = model.requests.filter((r) => r.handledAs === 'script' && JSON.stringify(r.body).includes('how full'));
    const sent = JSON.stringify(asked.at(-1)?.body);
    expect(sent).toContain('Last compile in the IDE: flash 31022 of 30720 bytes (101%)');
    expect(sent).toContain('libraries linked: Servo 1.2.2');
  });

  it('lets the agent read the unsaved editor contents instead of the file on disk (stand-in)', async () => {
    const unsaved = '// unsaved: blink on pin 7\nvoid setup() { pinMode(7, OUTPUT); }\nvoid loop() {}\n';
    vscode.documents.push({ uri: { scheme: 'file', path: ino, fsPath: ino }, isDirty: true, getText: () => unsaved });
    vscode.documentChanged.fire({});
    await until('the buffers sent to the panel', () => webview.posted.some((m) => JSON.stringify(m).includes('unsaved: blink on pin 7')));
    const frame = panelFrame();
    const turnsBefore = await frame.locator('#log .line.stop').count();
    await frame.fill('#prompt', 'read the sketch');
    await frame.press('#prompt', 'Enter');
    await frame.locator('#log .line.stop').nth(turnsBefore).waitFor(WAIT);
    const toolResults = model.requests.map((r) => r.conversation?.lastToolResult ?? '').filter(Boolean);
    expect(toolResults.join('\n')).toContain('unsaved: blink on pin 7');
    expect(readFileSync(ino, 'utf8')).toBe(original);
    vscode.documents.length = 0;
    const sent = webview.posted.length;
    vscode.documentChanged.fire({});
    await until('the emptied buffers sent to the panel', () => webview.posted.slice(sent).some((m) => JSON.stringify(m).includes('"buffers":{}')));
  });

  it('applies the agent\'s write as an edit of the IDE\'s document, opens it in the diff view, and rejects it through another edit the IDE can undo (stand-in)', async () => {
    const frame = panelFrame();
    await frame.fill('#prompt', 'make it fade');
    await frame.press('#prompt', 'Enter');
    const allow = frame.locator('#log .card.permission button[data-kind="allow_once"]');
    await allow.waitFor(WAIT);
    await allow.click();
    const diff = await until('vscode.diff', () => vscode.executed.find((c) => c[0] === 'vscode.diff'));
    const [, left, right, title, options] = diff as [string, { scheme: string; path: string }, { scheme: string; fsPath: string }, string, { preserveFocus?: boolean }];
    expect(left.scheme).toBe('boardbridge-original');
    // Opened without taking the keyboard from the panel's prompt.
    expect(options).toEqual({ preserveFocus: true });
    expect(right).toMatchObject({ scheme: 'file', fsPath: ino });
    expect(title).toContain('Blink.ino');
    expect(vscode.contentProviders.get('boardbridge-original')!.provideTextDocumentContent(left as never)).toBe(original);
    expect(readFileSync(ino, 'utf8')).toBe(FADE);
    expect(vscode.executed).toContainEqual(['setContext', 'boardbridge.reviewing', true]);
    // The write came through the editor: one edit of the document (undo brings the sketch back), then a save.
    expect(vscode.appliedEdits.map((e) => e.replacements.map((r) => [r.uri.fsPath, r.text]))).toEqual([[[ino, FADE]]]);
    const written = vscode.documents.find((d) => d.uri.fsPath === ino) as StandInTextDocument;
    expect([written.undoHistory, written.isDirty]).toEqual([[original], false]);

    await frame.click('#tabs button[data-tab="changes"]');
    await frame.waitForSelector(`#diff[data-ready="${ino}"] .monaco-diff-editor`, WAIT);
    await screenshot(page, 'extension-webview-diff');

    vscode.setActiveEditor(ino);
    await vscode.commands.get('boardbridge.rejectChange')!();
    await frame.waitForSelector(`#reviews li[data-status="rejected"]`, WAIT);
    expect(readFileSync(ino, 'utf8')).toBe(original);
    // The old text went back through the open document as one edit, then the document was saved.
    expect(vscode.appliedEdits.map((e) => e.replacements.map((r) => [r.uri.fsPath, r.text]))).toEqual([[[ino, FADE]], [[ino, original]]]);
    const document = vscode.documents.find((d) => d.uri.fsPath === ino);
    expect(document).toBeInstanceOf(StandInTextDocument);
    const edited = document as StandInTextDocument;
    expect([edited.getText(), edited.isDirty]).toEqual([original, false]);
    expect(edited.undoHistory.at(-1)).toBe(FADE);
    vscode.documents.length = 0;
  });

  it('opens a compile error\'s file:line link from the panel in the IDE\'s editor at that line (stand-in)', async () => {
    writeFileSync(ino, BROKEN);
    const frame = panelFrame();
    await frame.fill('#prompt', 'compile the sketch');
    await frame.press('#prompt', 'Enter');
    const link = frame.locator('#log .card.tool .output a.file-link', { hasText: /Blink\.ino:6:3/ }).first();
    await link.waitFor({ timeout: 90_000 });
    await link.click();
    const shown = await until('showTextDocument', () => vscode.shown[0]);
    expect(shown.document.uri.fsPath).toBe(ino);
    expect(shown.options?.selection?.start).toMatchObject({ line: 5, character: 2 });
    expect(await frame.isHidden('#tab-file-button')).toBe(true);
    writeFileSync(ino, original);
  });

  it('re-attaches to the running session when the IDE window reloads: same bridge, same agent, the conversation so far (stand-in)', async () => {
    const { pid } = extension.bridge!;
    const url = extension.url;
    await extension.stop(); // the extension host goes away with the window
    expect(alive(pid!)).toBe(true);
    extension = new BoardbridgeExtension(vscode.api, context, extensionEnv);
    await extension.start();
    expect([extension.bridge?.pid, extension.url]).toEqual([pid, url]);
    expect(agentChildren(pid!)).toBe(1);
    const before = panelFrame();
    vscode.viewProvider()!.resolveWebviewView(webview.view());
    const frame = await until('the reloaded view\'s panel frame', () => page.frames().find((f) => f !== before && f.url() === url));
    await frame.waitForSelector('#log .msg.agent:has-text("It blinks pin 7.")', WAIT);
  });

  it('stops the bridge and its agent by itself once the IDE window is gone and no panel has been connected for boardbridge.idleExitSeconds (stand-in)', async () => {
    const pid = extension.bridge!.pid!;
    await extension.stop();
    await page.goto('about:blank'); // the IDE window is gone: no panel is connected
    await until('the bridge to exit', () => !alive(pid));
    expect(agentChildren(pid)).toBe(0);
    expect(readFileSync(logOf(context), 'utf8')).toContain(`boardbridge serve stops: no page and no IDE window connected for ${IDLE_EXIT_SECONDS} s (--idle-exit)`);
  });

  it('ends the bridge and its agent at once on Restart (stand-in)', async () => {
    extension = new BoardbridgeExtension(vscode.api, context, extensionEnv);
    await extension.start();
    const first = extension.bridge!.pid!;
    await vscode.commands.get('boardbridge.restart')!();
    expect(alive(first)).toBe(false);
    expect(extension.bridge!.pid).not.toBe(first);
    // The panel's URL comes while the agent starts: it is there soon after.
    await until('the new bridge\'s agent', () => agentChildren(extension.bridge!.pid!) === 1);
    await (extension as unknown as { stopBridge(): Promise<void> }).stopBridge();
  });
});

describe('the extension in plain VS Code, without the Arduino API', () => {
  it("reads the 0.2 API's current sketch (BoardLab in VS Code) with its options and board details (stand-in)", async () => {
    const details = await boardDetails('arduino:avr:nano:cpu=atmega328old');
    const api = {
      openedSketches: [],
      currentSketch: { sketchPath: '/home/anna/Arduino/Blink', configOptions: 'arduino:avr:nano:cpu=atmega328old', board: { ...details, name: 'Arduino Nano' }, port: { protocol: 'serial', address: '/dev/ttyUSB0' }, compileSummary: undefined },
      config: { dataDirPath: '/home/anna/.arduino15', userDirPath: '/home/anna/Arduino' },
    };
    const selection = selectionFromArduino(api);
    expect(selection).toMatchObject({ sketch: '/home/anna/Arduino/Blink', board: 'arduino:avr:nano:cpu=atmega328old', port: '/dev/ttyUSB0' });
    expect(selection.arduinoIde).toMatchObject({ fqbn: 'arduino:avr:nano', dataDir: '/home/anna/.arduino15', userDir: '/home/anna/Arduino' });
    expect((selection.arduinoIde?.buildProperties as Record<string, string>)['build.mcu']).toBe('atmega328p');
    // Only a board identifier, no details yet: the FQBN, nothing about the build.
    expect(selectionFromArduino({ ...api, currentSketch: { ...api.currentSketch, configOptions: undefined, board: { name: 'Arduino Uno', fqbn: 'arduino:avr:uno' } } })).toMatchObject({ board: 'arduino:avr:uno' });
  });

  it('works on the first workspace folder with the board and port from its sketch.yaml (stand-in)', () => {
    const { sketch } = tempSketch();
    const plain = standInVscode({ folder: sketch, config: {} });
    expect(selectionFromFolder(plain.api)).toEqual({ sketch, board: 'arduino:avr:uno', port: undefined });
  });
});
