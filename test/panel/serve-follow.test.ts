// `boardbridge serve --follow` in real headless Chromium: the panel follows the
// project an IDE records in its settings file. No IDE runs here: the test writes
// the settings file as MPLAB X (projectui.properties, rewritten in place) and
// OpenMV IDE (OpenMVIDE.ini, replaced by rename) write it. MPLAB X runs the real
// claude-code-acp agent offline; OpenMV the stand-in agent, which echoes the
// context it was given. The steps in each describe build on each other.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { sharedFixtures } from '../context-providers/mplabx/support.js';
import { agentLaunch } from '../support/agents.js';
import { until } from '../support/until.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { runCli, standinLaunch, tempSketch } from '../e2e/run-cli.js';
import { launchChromium, screenshot } from './browser.js';
import { claudeCommand, startServe, type ServeProcess } from './serve-process.js';

const WAIT = { timeout: 45_000 };
const UNTIL = { timeoutMs: 45_000, stepMs: 50 };
const NOTE = 'CAN-FD notes: the demo uses CAN1.\n';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const shows = (page: Page, selector: string, text: string) =>
  page.waitForFunction(([s, t]) => document.querySelector(s!)?.textContent?.includes(t!) ?? false, [selector, text] as const, WAIT);

async function send(page: Page, text: string): Promise<void> {
  await page.fill('#prompt', text);
  await page.press('#prompt', 'Enter');
}

const standinCommand = [standinLaunch.command, ...standinLaunch.args].join(' ');

describe('serve --follow on bad input and without the settings file', () => {
  it('refuses an IDE it cannot follow and --ide-settings without --follow, as usage errors', async () => {
    const { sketch } = tempSketch();
    const ide = await runCli(['serve', sketch, '--follow', 'arduino', '--agent-command', 'true']);
    expect(ide.code).toBe(2);
    expect(ide.stderr).toContain('--follow takes mplabx or openmv (got "arduino")');
    const settings = await runCli(['serve', sketch, '--ide-settings', '/tmp/x.ini', '--agent-command', 'true']);
    expect(settings.code).toBe(2);
    expect(settings.stderr).toContain('--ide-settings needs --follow mplabx or --follow openmv');
  });

  it('serves the given project, saying where it looked and what to try, while the IDE has written no settings file', async () => {
    const { root, sketch } = tempSketch();
    const missing = path.join(root, 'nowhere', 'projectui.properties');
    const served = await startServe([sketch, '--follow', 'mplabx', '--ide-settings', missing, '--agent-command', standinCommand], {
      ...(process.env as Record<string, string>),
      BOARDBRIDGE_STATE_DIR: path.join(root, 'state'),
    });
    try {
      await until('the fallback to be explained', () => served.output().includes('the panel serves'), UNTIL);
      expect(served.output()).toContain(`no MPLAB X settings at ${missing}: MPLAB X writes it within a second of opening a project or setting the main project; if it keeps its settings elsewhere (a --userdir), pass --ide-settings <file>. Watching for it.`);
      expect(served.output()).toContain(`boardbridge panel for ${sketch}`);
      expect(served.output()).toContain(`MPLAB X's settings cannot be read yet — the panel serves ${sketch} until they can`);
    } finally {
      await served.stop();
    }
  });
});

describe('serve --follow mplabx (settings file written as MPLAB X writes it; real claude-code-acp)', () => {
  let root: string;
  let pic: string;
  let dspic: string;
  let settings: string;
  let model: ModelServer;
  let served: ServeProcess;
  let page: Page;

  // projectui.properties as NetBeans' EditableProperties leaves it: ISO-8859-1, file: URLs with a trailing slash.
  const projectui = (main?: string) =>
    [
      `openProjectsURLs.0=file:${encodeURI(pic)}/`,
      `openProjectsURLs.1=file:${encodeURI(dspic)}/`,
      'openProjectsDisplayNames.0=pic18-demo',
      'openProjectsDisplayNames.1=dspic-canfd',
      'openProjectsIcons.0=rO0ABXNyABVqYXZheC5zd2luZy5JbWFnZUljb27y',
      'openProjectsIcons.1=rO0ABXNyABVqYXZheC5zd2luZy5JbWFnZUljb27y',
      ...(main ? [`mainProjectURL=file:${encodeURI(main)}/`] : []),
      '',
    ].join('\n');

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'bb-follow-mplab-'));
    pic = path.join(root, 'MPLABXProjects', 'pic18-demo.X');
    dspic = path.join(root, 'MPLABXProjects', 'dspic-canfd.X');
    cpSync(path.join(sharedFixtures, 'pic18f47q10-curiosity-hpc-demo-code.X'), pic, { recursive: true });
    cpSync(path.join(sharedFixtures, 'dspic33ck-curiosity-canfd.X'), dspic, { recursive: true });
    settings = path.join(root, 'mplab_ide', 'dev', 'v6.25', 'config', 'Preferences', 'org', 'netbeans', 'modules', 'projectui.properties');
    mkdirSync(path.dirname(settings), { recursive: true });
    writeFileSync(settings, projectui(pic), 'latin1');
    model = await startModelServer({
      turns: [
        { whenUserSays: 'hello', replies: [{ say: 'Hello from the PIC18 project.' }] },
        { whenUserSays: 'write a note', replies: [{ tool: { claude: { name: 'Write', input: { file_path: path.join(dspic, 'notes.txt'), content: NOTE } } } }, { say: 'Noted.' }] },
      ],
    });
    const launch = agentLaunch('claude-code-acp', model.url, root);
    served = await startServe(
      ['--follow', 'mplabx', '--ide-settings', settings, '--agent-command', claudeCommand(launch)],
      { ...launch.env, BOARDBRIDGE_STATE_DIR: path.join(root, 'state'), CI: 'true' },
      () => model.close(),
    );
    page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  });

  afterAll(async () => {
    await page?.close();
    await served?.stop();
  });

  it('opens on the main project MPLAB X records, with its device in the board tab', async () => {
    await page.goto(served.url);
    await page.waitForSelector('body[data-ready="true"]', WAIT);
    expect(await page.textContent('#workspace')).toBe(pic);
    await shows(page, '#project-note', 'Following MPLAB X: pic18-demo.X');
    await page.click('#tabs button[data-tab="board"]');
    await shows(page, '#board-name', 'PIC18F47Q10');
    await send(page, 'hello there');
    await shows(page, '#log .msg.agent', 'Hello from the PIC18 project.');
    await page.waitForSelector('#log .line.stop', WAIT);
    expect(served.output()).toContain(`boardbridge panel for ${pic}`);
  });

  it('switches the page to the other project when the file is rewritten to make it main: workspace, board and a new conversation', async () => {
    const before = await page.getAttribute('body', 'data-session-id');
    writeFileSync(settings, projectui(dspic), 'latin1');
    await shows(page, '#project-note', 'MPLAB X switched to dspic-canfd.X — the panel follows it');
    await shows(page, '#workspace', dspic);
    await shows(page, '#board-name', 'dsPIC33CK256MP508');
    // No device pack here: the Board tab says why its pin table is empty.
    await shows(page, '#board-notes', 'device pack not installed');
    await page.waitForFunction((old) => document.body.dataset.sessionId && document.body.dataset.sessionId !== old, before, WAIT);
    expect(await page.locator('#log').innerText()).not.toContain('Hello from the PIC18 project.');
    // serve's terminal line and the page's new session come by different ways: wait for the line itself.
    await until("serve's line about the switch", () => served.output().includes('now serving'), UNTIL);
    expect(served.output()).toContain(`MPLAB X switched to dspic-canfd.X — the panel follows it: now serving ${dspic} (same URL)`);
    await until('the old agent to end', () => served.agentProcesses() === 1, UNTIL);
    await screenshot(page, 'panel-follows-mplabx');
  });

  it('sends a prompt to the session in the new project, and a switch asked for during that turn waits for its end', async () => {
    await send(page, 'write a note about CAN');
    const allow = page.locator('#log .card.permission button[data-kind="allow_once"]').last();
    await allow.waitFor(WAIT);
    writeFileSync(settings, projectui(pic), 'latin1');
    await page.waitForSelector('body[data-follow-pending="true"]', WAIT);
    await shows(page, '#project-note', 'MPLAB X switched to pic18-demo.X — the panel follows it when the agent has finished this turn');
    expect(await page.textContent('#workspace')).toBe(dspic);
    const prompt = model.requests.find((r) => r.handledAs === 'script' && JSON.stringify(r.body).includes('write a note about CAN'));
    expect(JSON.stringify(prompt?.body)).toContain('dsPIC33CK256MP508');
    await allow.click();
    await page.waitForSelector('body[data-follow-pending="false"]', WAIT);
    await shows(page, '#workspace', pic);
    expect(readFileSync(path.join(dspic, 'notes.txt'), 'utf8')).toBe(NOTE);
    await until('one agent again', () => served.agentProcesses() === 1, UNTIL);
  });

  it('keeps the journal of the project it left, so undo still restores its files', async () => {
    const undo = await runCli(['undo', '--workspace', dspic], { env: { ...(process.env as Record<string, string>), BOARDBRIDGE_STATE_DIR: path.join(root, 'state') } });
    expect(undo.code).toBe(0);
    expect(existsSync(path.join(dspic, 'notes.txt'))).toBe(false);
  });

  it('lands on the followed project after a reload, and stays put, saying why, when two projects are open and none is main', async () => {
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]', WAIT);
    expect(await page.textContent('#workspace')).toBe(pic);
    await shows(page, '#project-note', 'MPLAB X switched to pic18-demo.X');
    writeFileSync(settings, projectui(), 'latin1');
    await shows(page, '#project-note', 'MPLAB X has 2 projects open and none is the main project: set one with Run → Set Main Project (or right-click the project → Set as Main Project) — the panel stays on pic18-demo.X');
    expect(await page.textContent('#workspace')).toBe(pic);
    expect(served.agentProcesses()).toBe(1);
  });
});

describe('serve --follow openmv (settings file written as OpenMV IDE writes it; stand-in agent)', () => {
  let root: string;
  let settings: string;
  let served: ServeProcess;
  let page: Page;
  const script = (folder: string, name: string, text: string) => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, name), text);
    return path.join(folder, name);
  };
  // QSettings writes a temporary file and renames it over OpenMVIDE.ini.
  const saveIni = (files: string[], port: string) => {
    const text = `[OpenMV]\nLastSerialPortState=${port}\nLastBoardTypeState=OPENMV4\n\n[OpenMVSerialPort]\n${port}=/media/anna/4621-0000\n\n[RecentFiles]\nFiles=${files.join(', ')}\nEditorIds=${files.map(() => 'Core.PlainTextEditor').join(', ')}\n`;
    writeFileSync(`${settings}.tmp`, text);
    renameSync(`${settings}.tmp`, settings);
  };
  let blob: string;
  let faces: string;
  let qr: string;

  async function echoedContext(): Promise<string> {
    const before = await page.locator('#log .msg.agent').count();
    await send(page, 'echo-blocks');
    // The reply's element appears with its first chunk; the text is whole once the turn has ended.
    await page.waitForFunction(
      (n) => document.querySelectorAll('#log .msg.agent').length > n && document.body.dataset.busy === 'false',
      before,
      WAIT,
    );
    return (await page.locator('#log .msg.agent').last().textContent()) ?? '';
  }

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'bb-follow-openmv-'));
    blob = script(path.join(root, 'Documents', 'OpenMV', 'blobs'), 'blob.py', 'import sensor, time\nsensor.reset()\n');
    faces = script(path.join(root, 'Documents', 'OpenMV', 'blobs'), 'faces.py', 'import csi\ncam = csi.CSI()\n');
    qr = script(path.join(root, 'Documents', 'OpenMV', 'qr codes'), 'qr.py', 'import sensor\nsensor.reset()\n');
    settings = path.join(root, 'config', 'OpenMV', 'OpenMVIDE.ini');
    mkdirSync(path.dirname(settings), { recursive: true });
    saveIni([blob, qr], 'ttyACM0');
    // The stand-in refuses to start in a folder holding `refuse-agent`, as an agent that cannot run there would.
    const refusing = `sh -c 'test -e refuse-agent && exit 3; exec ${standinCommand}'`;
    served = await startServe(['--follow', 'openmv', '--board', 'OPENMV4', '--agent-command', refusing], {
      ...(process.env as Record<string, string>),
      XDG_CONFIG_HOME: path.join(root, 'config'),
      BOARDBRIDGE_STATE_DIR: path.join(root, 'state'),
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  });

  afterAll(async () => {
    await page?.close();
    await served?.stop();
  });

  it('opens on the folder of the latest script in OpenMVIDE.ini (found in its XDG place) and gives the agent that script and port', async () => {
    await page.goto(served.url);
    await page.waitForSelector('body[data-ready="true"]', WAIT);
    expect(await page.textContent('#workspace')).toBe(path.dirname(blob));
    await shows(page, '#project-note', 'Following OpenMV IDE: blob.py (port /dev/ttyACM0, drive /media/anna/4621-0000)');
    const context = await echoedContext();
    expect(context).toContain('blob.py uses the sensor module');
  });

  it('switches to the other folder when the file is replaced with another script first', async () => {
    saveIni([qr, blob], 'ttyACM1');
    await shows(page, '#workspace', path.dirname(qr));
    await shows(page, '#project-note', 'OpenMV IDE switched to qr.py — the panel follows it (port /dev/ttyACM1, drive /media/anna/4621-0000)');
    expect(await page.locator('#log').innerText()).not.toContain('blob.py uses the sensor module');
    expect(await echoedContext()).toContain('qr.py uses the sensor module');
    await until('the old agent to end', () => served.agentProcesses() === 1, UNTIL);
  });

  it('keeps the session and conversation when the latest script is another one in the same folder', async () => {
    saveIni([blob, qr], 'ttyACM1');
    await shows(page, '#workspace', path.dirname(blob));
    expect(await echoedContext()).toContain('blob.py uses the sensor module');
    saveIni([faces, blob, qr], 'ttyACM1');
    await shows(page, '#project-note', 'OpenMV IDE has faces.py open — the panel follows it (port /dev/ttyACM1, drive /media/anna/4621-0000)');
    const context = await echoedContext();
    expect(context).toContain('faces.py');
    expect(context).not.toContain('blob.py uses');
    expect(await page.locator('#log').innerText()).toContain('blob.py uses the sensor module');
    await until('the old agent to end', () => served.agentProcesses() === 1, UNTIL);
  });

  it('stays on its project, saying why, when the agent cannot start in the new one', async () => {
    const broken = script(path.join(root, 'Documents', 'OpenMV', 'broken'), 'b.py', 'import sensor\n');
    writeFileSync(path.join(path.dirname(broken), 'refuse-agent'), '');
    saveIni([broken, faces], 'ttyACM1');
    await shows(page, '#project-note', 'OpenMV IDE switched to b.py, but the agent could not start there (');
    expect(await page.textContent('#project-note')).toMatch(/— the panel stays on blobs$/);
    expect(await page.textContent('#workspace')).toBe(path.dirname(blob));
    expect(await echoedContext()).toContain('echo-blocks');
    expect(served.agentProcesses()).toBe(1);
  });
});
