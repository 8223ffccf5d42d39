// The panel inside the real code-server (a VS Code extension host in the browser, installed once by
// test/setup/code-server.sh) with the default settings: no boardbridge.embedFrom, so the webview's
// frame is allowed because the extension names code-server's own origin. A fresh profile whose
// agent (Gemini CLI, no key) is not ready shows the choices; the person then sets
// boardbridge.agentCommand in settings.json and the view picks up the agent (the real
// claude-code-acp, offline against the scripted model server) with no "Restart the bridge". Then a
// reply in markdown, a permission card with its diff, a tool call unfolded and the simulation chart
// of a 2 s fade. Each state is checked in the webview at a 300 px side bar and at the side bar's
// default width, light and dark (workbench.colorTheme in settings.json), and its PNG goes to
// docs/screenshots/code-server-<state>-<width>-<theme>.png (only with UPDATE_GOLDENS=1 or when missing).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLaunch } from '../support/agents.js';
import { writeScreenshot } from '../support/golden.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { until } from '../support/until.js';
import { screenshotTurns } from '../panel/screenshot-script.js';
import { repoRoot, tempSketch } from '../e2e/run-cli.js';
import { layoutProblems, settled } from '../panel/panel-layout.js';
import { claudeCommand } from '../panel/serve-process.js';
import { codeServerFailed, openCodeServer, skipCodeServer, WAIT, type CodeServerHost } from './code-server-host.js';

const OUT = path.join(repoRoot, 'docs', 'screenshots');
const THEMES = { light: 'Default Light Modern', dark: 'Default Dark Modern' } as const;
const NARROW = 300;

describe.skipIf(skipCodeServer)(`the panel in code-server with the default settings${codeServerFailed ? ` (skipped: ${codeServerFailed.split('\n')[0]})` : ''}`, { timeout: 300_000 }, () => {
  let model: ModelServer;
  let host: CodeServerHost;
  let agentCommand: string;
  /** The side bar's width as code-server lays it out for this window, before any resize. */
  let defaultWidth: number;
  const settingsFile = () => path.join(host.userData, 'User', 'settings.json');
  const panel = (): Frame => {
    const frame = host.panel();
    if (!frame) throw new Error(`the panel's frame is not in code-server's webview; frames:\n${host.page.frames().map((f) => f.url()).join('\n')}`);
    return frame;
  };

  /**
   * Saves settings as a person does: "Preferences: Open User Settings (JSON)", the new text, Ctrl+S.
   * (code-server's workbench does not notice a write to the file from outside.)
   */
  async function setSettings(changes: Record<string, unknown>): Promise<void> {
    const { page } = host;
    const now = readSettings()!;
    await runCommand('Preferences: Open User Settings (JSON)');
    // The editor of settings.json itself: another editor (the agent's diff) may be open in the group.
    const editor = page.locator('.editor-instance .monaco-editor[data-uri$="/User/settings.json"] .view-lines').first();
    await editor.waitFor(WAIT);
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(JSON.stringify({ ...now, ...changes }));
    await page.keyboard.press('Control+S');
    const saved = { ...now, ...changes };
    await until('code-server to save settings.json', () => JSON.stringify(readSettings()) === JSON.stringify(saved), { timeoutMs: 60_000, stepMs: 100, detail: () => `settings.json holds ${JSON.stringify(readSettings())}` });
    expect(readSettings()).toEqual(saved);
    // Saved, settings.json is closed again, as a person does (it opens in the editor area: useModal is off,
    // else code-server's default shows it as a modal over the side bar).
    await runCommand('View: Close All Editors');
    await page.locator('.editor-instance .monaco-editor').first().waitFor({ state: 'detached', ...WAIT });
    // The mouse off the workbench, so no tooltip covers what is shown next.
    await page.mouse.move(1399, 899);
  }

  /** The saved settings; undefined while code-server is in the middle of writing the file. */
  function readSettings(): Record<string, unknown> | undefined {
    try {
      return JSON.parse(readFileSync(settingsFile(), 'utf8')) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  }

  /** Runs a command from the command palette (F1), by its title. */
  async function runCommand(title: string): Promise<void> {
    const { page } = host;
    // The keys go to the workbench, not to the panel's frame (which keeps F1 to itself): whatever has
    // the focus lets it go. No click to get it: a click in the editor area lands on what is open there
    // (on the agent's diff editor, its breadcrumbs, whose picker then takes the focus and the palette closes).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('F1');
    // The palette's own input has the focus, so the title is typed there.
    await page.waitForFunction(() => document.activeElement?.matches('.quick-input-widget input') === true, undefined, WAIT);
    await page.keyboard.insertText(title);
    // The list filters as the title arrives: Enter once the command is the row it has chosen, and the palette still has the keyboard.
    const chosen = (t: string) =>
      document.activeElement?.matches('.quick-input-widget input') === true &&
      document.querySelector('.quick-input-list .monaco-list-row.focused')?.getAttribute('aria-label')?.startsWith(t) === true;
    try {
      await page.waitForFunction(chosen, title, WAIT);
    } catch (error) {
      const shown = await page.evaluate(() => ({
        focus: document.activeElement?.outerHTML.slice(0, 200),
        input: document.querySelector<HTMLInputElement>('.quick-input-widget input')?.value,
        rows: [...document.querySelectorAll('.quick-input-list .monaco-list-row')].slice(0, 3).map((r) => `${r.classList.contains('focused') ? '> ' : ''}${r.getAttribute('aria-label')}`),
      }));
      throw new Error(`the command palette did not choose "${title}": ${JSON.stringify(shown)}`, { cause: error });
    }
    await page.keyboard.press('Enter');
  }

  const sidebar = () => host.page.locator('.part.sidebar').first();
  const sidebarWidth = async () => (await sidebar().boundingBox())!.width;

  /** Drags the sash on the side bar's right edge until the side bar is `width` px wide. */
  async function resizeSidebar(width: number): Promise<void> {
    const { page } = host;
    const box = (await sidebar().boundingBox())!;
    if (Math.round(box.width) === width) return;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width, y);
    await page.mouse.down();
    await page.mouse.move(box.x + width, y, { steps: 4 });
    await page.mouse.up();
    expect(Math.round(await sidebarWidth())).toBe(width);
  }

  async function setTheme(theme: keyof typeof THEMES): Promise<void> {
    if (readSettings()?.['workbench.colorTheme'] !== THEMES[theme]) await setSettings({ 'workbench.colorTheme': THEMES[theme] });
    await panel().waitForSelector(`body[data-theme="${theme}"]`, WAIT);
  }

  /** The panel's frame fills the view: its box lies inside the side bar, as wide as the side bar. */
  async function frameProblems(): Promise<string[]> {
    const problems: string[] = [];
    const bar = (await sidebar().boundingBox())!;
    const element = await panel().frameElement();
    const box = (await element.boundingBox())!;
    if (box.x < bar.x - 0.5 || box.x + box.width > bar.x + bar.width + 0.5) problems.push(`the panel's frame (${Math.round(box.x)}..${Math.round(box.x + box.width)}) sticks out of the side bar (${Math.round(bar.x)}..${Math.round(bar.x + bar.width)})`);
    if (box.y + box.height > bar.y + bar.height + 0.5) problems.push(`the panel's frame ends below the side bar (${Math.round(box.y + box.height)} > ${Math.round(bar.y + bar.height)})`);
    if (box.width < bar.width - 8) problems.push(`the panel's frame is ${Math.round(box.width)} px in a ${Math.round(bar.width)} px side bar`);
    return problems;
  }

  /** Checks and writes a state at each side-bar width and theme: the activity bar and the side bar, as a person sees them. */
  async function capture(name: string, must: string[], before: () => Promise<void> = async () => undefined): Promise<void> {
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(theme);
      for (const width of [NARROW, defaultWidth]) {
        await resizeSidebar(width);
        await before();
        await settled(panel());
        expect([...(await frameProblems()), ...(await layoutProblems(panel(), must))], `${name} at ${width} px, ${theme}`).toEqual([]);
        const bar = (await sidebar().boundingBox())!;
        await writeScreenshot(path.join(OUT, `code-server-${name}-${width}-${theme}.png`), () =>
          host.page.screenshot({ clip: { x: 0, y: 0, width: Math.ceil(bar.x + bar.width), height: Math.ceil(bar.y + bar.height) } }),
        );
      }
    }
  }

  const scrollTo = (selector: string, block: 'start' | 'end' = 'end') =>
    panel()
      .locator(selector)
      .last()
      .evaluate((e, b) => e.scrollIntoView({ block: b }), block);

  beforeAll(async () => {
    const made = tempSketch();
    model = await startModelServer({ turns: screenshotTurns(made) });
    const launch = agentLaunch('claude-code-acp', model.url, made.root);
    agentCommand = claudeCommand(launch);
    // The bridge starts when the window opens and stops once no view has connected for idleExitSeconds:
    // on a loaded machine the view may open after more than a few seconds.
    host = await openCodeServer(made.root, made.sketch, { 'boardbridge.agent': 'gemini', 'boardbridge.idleExitSeconds': 120, 'workbench.colorTheme': THEMES.light, 'workbench.editor.useModal': 'off' }, { ...launch.env, BOARDBRIDGE_STATE_DIR: path.join(made.root, 'state') });
  }, 300_000);

  afterAll(async () => {
    await host?.close();
    await model?.close();
  });

  it('shows the panel in its webview with no boardbridge.embedFrom set, not a frame the browser refused', async () => {
    const { page } = host;
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))['boardbridge.embedFrom']).toBeUndefined();
    await page.locator('.activitybar [aria-label^="boardbridge"]').first().click(WAIT);
    await until('the panel page in the boardbridge view', () => host.panel(), { timeoutMs: 240_000, stepMs: 100 }).catch(async (error: Error) => {
      const shown = page.frames().find((f) => f.url().includes('/webview/browser/pre/fake.html'));
      throw new Error(`${error.message}; the view shows: ${await shown?.textContent('body').catch(() => '')}\ncode-server:\n${host.log().slice(-3000)}`);
    });
    // A refused frame has no document of the panel's: body[data-ready] never comes.
    await panel().waitForSelector('body[data-agent="unavailable"]', WAIT);
    defaultWidth = Math.round(await sidebarWidth());
    expect(await panel().textContent('#agent-reason')).toMatch(/Gemini/i);
  });

  it('first run: no agent is ready, the choices are listed, the setting boardbridge.agentCommand is named', async () => {
    expect(await panel().textContent('#agent-setup')).toContain('boardbridge.agentCommand');
    // The card's head as it first shows; its Start buttons are the next state's (at 300 px they are below it).
    await capture('first-run-no-agent', ['#agent-setup h3', '#agent-reason'], () =>
      panel().locator('#agent-setup h3').evaluate((e) => e.scrollIntoView({ block: 'start' })),
    );
  });

  it('picking an agent: the Start button of Claude has the focus', async () => {
    await capture('pick-agent', ['#agent-choices li[data-agent="claude"] button.start'], async () => {
      await panel().locator('#agent-choices li[data-agent="claude"] button.start').scrollIntoViewIfNeeded();
      await panel().focus('#agent-choices li[data-agent="claude"] button.start');
    });
  });

  it('applies boardbridge.agentCommand saved in settings.json at once: the view leaves "No agent is ready" with no restart command', async () => {
    const before = panel();
    await setSettings({ 'boardbridge.agentCommand': agentCommand });
    // The bridge restarts with the new agent: a new panel page, and that page has the agent ready.
    await until('a new panel page after the restart with the new agent', () => host.panel() !== before && host.panel(), { timeoutMs: 240_000, stepMs: 100, detail: () => `code-server:\n${host.log().slice(-3000)}` });
    await panel().waitForSelector('body[data-agent="ready"]', WAIT);
    expect(await panel().textContent('#agent')).toMatch(/claude/i);
  });

  it('a reply in markdown: bold, a list, inline code and a C++ block coloured by Monaco', async () => {
    const frame = panel();
    await frame.fill('#prompt', 'how do I fade the LED?');
    await frame.press('#prompt', 'Enter');
    const reply = frame.locator('#log .msg.agent').last();
    await reply.locator('pre code[data-colorized="cpp"]').waitFor(WAIT);
    await frame.waitForSelector('#log .line.stop', WAIT);
    expect(await reply.locator('strong').first().textContent()).toBe('D13');
    expect(await reply.textContent()).not.toMatch(/\*\*|```/);
    await capture('markdown-reply', ['#log .msg.agent pre'], () => scrollTo('#log .msg.agent pre'));
  });

  it('a permission card with the change’s diff inline and Allow / Reject beside it', async () => {
    const frame = panel();
    await frame.fill('#prompt', 'make it fade on D9');
    await frame.press('#prompt', 'Enter');
    const card = frame.locator('#log .card.permission:not([data-decided])').last();
    await card.locator('.inline-diff[data-ready="true"] .view-line', { hasText: 'analogWrite' }).first().waitFor(WAIT);
    expect(await card.locator('.title').textContent()).toMatch(/Allow\? Write Blink\.ino/);
    await capture('permission-diff', ['#log .card.permission:not([data-decided]) .inline-diff', '#log .card.permission:not([data-decided]) button[data-kind="allow_once"]'], () =>
      scrollTo('#log .card.permission:not([data-decided])', 'start'),
    );
    await card.locator('button[data-kind="allow_once"]').click();
    await frame.waitForFunction(() => document.querySelectorAll('#log .line.stop').length >= 2, undefined, WAIT);
  });

  it('a tool call unfolded: the simulate call’s title, its input and its output', async () => {
    // The extension opened the agent's write in VS Code's diff editor; the panel keeps the side bar,
    // and the theme is switched (through the palette) with that editor open.
    await host.page.locator('.editor-instance .monaco-diff-editor').first().waitFor(WAIT);
    const frame = panel();
    await frame.fill('#prompt', 'try the fade in the simulator');
    await frame.press('#prompt', 'Enter');
    // A turn that never ends says what the person saw of it: the tool card's state, or an error line.
    await frame.waitForFunction(() => document.querySelectorAll('#log .line.stop').length >= 3, undefined, WAIT).catch(async (error: Error) => {
      const seen = await frame.locator('#log').innerText().catch((reason: Error) => `(the conversation could not be read: ${reason.message})`);
      throw new Error(`${error.message}\nthe conversation's end when the turn had not stopped:\n${seen.slice(-3000)}`);
    });
    const card = frame.locator('#log .card.tool', { hasText: 'Simulate' }).last();
    expect(await card.locator(':scope > summary .title').textContent()).toBe('Simulate Blink on Arduino UNO for 2.2s');
    if (await frame.locator('#views-close').isVisible()) await frame.click('#views-close');
    await card.locator(':scope > summary').click();
    expect(await card.getAttribute('open')).not.toBeNull();
    await capture('tool-call-expanded', ['#log .card.tool[open] .detail dl.input'], () => scrollTo('#log .card.tool[open]', 'start'));
  });

  it('the simulation chart of a 2 s fade: the whole run, the duty ramping on D9', async () => {
    const frame = panel();
    await frame.click('#tabs button[data-tab="simulation"]');
    const chart = frame.locator('#simulation-chart');
    await chart.locator('.uplot canvas').waitFor(WAIT);
    expect(await chart.getAttribute('data-pins')).toBe('D9');
    expect(Number(await chart.getAttribute('data-seconds'))).toBeCloseTo(2.2, 2);
    await capture('simulation-fade', ['#simulation-chart canvas'], () => chart.evaluate((e) => e.scrollIntoView({ block: 'start' })));
  });
});
