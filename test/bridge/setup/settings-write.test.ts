// `boardbridge setup --write` never loses a setting: real settings files of each editor
// (Zed's JSONC with comments, a BOM, CRLF, a symlink into a dotfiles folder; JetBrains'
// acp.json; Emacs init files; Neovim's module), written by the real CLI process. Eight
// runs at once all land. Emacs itself (emacs-nox, in a pty) starts with the written init
// and shows it is the file it reads and that boardbridge's file was loaded. No Zed,
// JetBrains IDE or Neovim runs here: their files are checked against their documented format.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { cliMain } from '../../e2e/run-cli.js';

interface Home {
  HOME: string;
  XDG_CONFIG_HOME: string;
}

function home(): Home {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bb-setup-write-'));
  return { HOME: dir, XDG_CONFIG_HOME: path.join(dir, '.config') };
}

// A hang guard only (a FIFO opened for reading would block forever): no assertion is about time.
function cli(args: string[], env: Home) {
  return spawnSync(process.execPath, [cliMain, ...args], { env: { ...process.env, ...env, PATH: '/usr/bin:/bin' }, encoding: 'utf8', timeout: 60_000 });
}

function zedFile(env: Home): string {
  const file = path.join(env.XDG_CONFIG_HOME, 'zed', 'settings.json');
  mkdirSync(path.dirname(file), { recursive: true });
  return file;
}

function backupsOf(file: string): string[] {
  return readdirSync(path.dirname(file)).filter((f) => f.startsWith(`${path.basename(file)}.boardbridge-backup-`));
}

const ours = (agent: string) => [cliMain, 'acp', '--agent', agent];

describe('setup --write into Zed\'s settings.json (JSONC)', () => {
  it('merges into an existing entry of the same name: keeps its env, extra args, other keys and comments, and says what changed', () => {
    const env = home();
    const file = zedFile(env);
    const original = [
      '// Zed settings',
      '{',
      '  "theme": "One Dark",',
      '  "agent_servers": {',
      '    "Claude (board-aware)": {',
      '      // my API key, do not lose it',
      '      "type": "custom",',
      '      "command": "/old/boardbridge",',
      '      "args": ["acp", "--agent", "gemini", "--fqbn", "arduino:avr:mega", "--verbose"],',
      '      "env": { "ANTHROPIC_API_KEY": "sk-secret", "HTTPS_PROXY": "http://127.0.0.1:3128" },',
      '      "default_mode": "plan",',
      '    },',
      '  },',
      '}',
      '',
    ].join('\n');
    writeFileSync(file, original);
    const run = cli(['setup', 'zed', '--agent', 'claude', '--write'], env);
    expect(run.status, run.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('// Zed settings');
    expect(text).toContain('// my API key, do not lose it');
    const entry = (parse(text) as { agent_servers: Record<string, Record<string, unknown>> }).agent_servers['Claude (board-aware)'];
    expect(entry).toEqual({
      type: 'custom',
      command: process.execPath,
      // --agent is this run's; --fqbn (not given this time) and --verbose are the person's.
      args: [...ours('claude'), '--fqbn', 'arduino:avr:mega', '--verbose'],
      env: { ANTHROPIC_API_KEY: 'sk-secret', HTTPS_PROXY: 'http://127.0.0.1:3128' },
      default_mode: 'plan',
    });
    expect(run.stderr).toContain(`agent_servers."Claude (board-aware)".command: "/old/boardbridge" → ${JSON.stringify(process.execPath)}`);
    expect(run.stderr).toContain('agent_servers."Claude (board-aware)": kept env (2 variables), default_mode as they were');
    expect(backupsOf(file).map((b) => readFileSync(path.join(path.dirname(file), b), 'utf8'))).toEqual([original]);
  });

  it('keeps a byte-order mark, CRLF line ends and tab indentation, and writes through a symlink into a dotfiles folder', () => {
    const env = home();
    const file = zedFile(env);
    const dotfiles = path.join(env.HOME, 'dotfiles');
    mkdirSync(dotfiles);
    const real = path.join(dotfiles, 'zed.json');
    const original = '\uFEFF{\r\n\t// tabs and CRLF\r\n\t"vim_mode": true,\r\n}\r\n';
    writeFileSync(real, original);
    symlinkSync(real, file);
    const run = cli(['setup', 'zed', '--agent', 'claude', '--write'], env);
    expect(run.status, run.stderr).toBe(0);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    const text = readFileSync(real, 'utf8');
    expect(text.startsWith('\uFEFF{\r\n\t// tabs and CRLF\r\n\t"vim_mode": true,')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    expect(text).toMatch(/\r\n\t"agent_servers": \{\r\n\t\t"Claude \(board-aware\)": \{\r\n\t\t\t"type": "custom",/);
    const settings = parse(text.slice(1)) as { vim_mode: boolean; agent_servers: Record<string, { args: string[] }> };
    expect(settings.vim_mode).toBe(true);
    expect(settings.agent_servers['Claude (board-aware)'].args).toEqual(ours('claude'));
    expect(readFileSync(path.join(path.dirname(file), backupsOf(file)[0]), 'utf8')).toBe(original);
  });

  it('accepts an empty file, a file of comments only and "agent_servers": null', () => {
    for (const original of ['', '// nothing here yet\n/* really */\n', '{ "agent_servers": null, "theme": "Ayu" }\n']) {
      const env = home();
      const file = zedFile(env);
      writeFileSync(file, original);
      const run = cli(['setup', 'zed', '--agent', 'claude', '--write'], env);
      expect(run.status, `${JSON.stringify(original)}: ${run.stderr}`).toBe(0);
      const text = readFileSync(file, 'utf8');
      if (original.includes('//')) expect(text.startsWith(original)).toBe(true);
      const settings = parse(text) as { theme?: string; agent_servers: Record<string, { command: string }> };
      expect(settings.agent_servers['Claude (board-aware)'].command).toBe(process.execPath);
      if (original.includes('Ayu')) {
        expect(settings.theme).toBe('Ayu');
        expect(run.stderr).toContain('agent_servers was null: it is now an object with agent_servers."Claude (board-aware)"');
      }
    }
  });

  it('refuses a read-only settings file, checked from its mode bits even for root, and writes nothing', () => {
    const env = home();
    const file = zedFile(env);
    writeFileSync(file, '{ "theme": "One Dark" }\n');
    chmodSync(file, 0o444);
    const run = cli(['setup', 'zed', '--agent', 'claude', '--write'], env);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`boardbridge: ${file} is read-only (mode 0444); nothing was written`);
    expect(readFileSync(file, 'utf8')).toBe('{ "theme": "One Dark" }\n');
    expect(statSync(file).mode & 0o777).toBe(0o444);
    expect(backupsOf(file)).toEqual([]);
  });

  it('refuses a FIFO or a directory at the settings path at once, without opening it', () => {
    const env = home();
    const fifo = path.join(env.HOME, 'settings.fifo');
    execFileSync('mkfifo', [fifo]);
    const run = cli(['setup', 'zed', '--write', '--file', fifo], env);
    expect(run.signal).toBeNull();
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`boardbridge: ${fifo} is a FIFO (named pipe), not a settings file; nothing was written`);
    const dir = path.join(env.HOME, 'a-folder');
    mkdirSync(dir);
    const again = cli(['setup', 'zed', '--write', '--file', dir], env);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`${dir} is a directory, not a settings file`);
  });

  it('lets 8 runs at once all land: 8 entries, the comment kept, one backup for each run', async () => {
    const env = home();
    const file = zedFile(env);
    writeFileSync(file, '// shared by eight runs\n{}\n');
    const runs = Array.from({ length: 8 }, (_, i) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, [cliMain, 'setup', 'zed', '--agent', 'claude', '--name', `Agent ${i}`, '--write'], { env: { ...process.env, ...env, PATH: '/usr/bin:/bin' }, stdio: 'ignore' });
        child.once('exit', resolve);
      }),
    );
    expect(await Promise.all(runs)).toEqual(Array(8).fill(0));
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('// shared by eight runs\n')).toBe(true);
    expect(Object.keys((parse(text) as { agent_servers: object }).agent_servers).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `Agent ${i}`));
    expect(backupsOf(file)).toHaveLength(8);
    expect(readdirSync(path.dirname(file)).filter((f) => f.includes('lock') || f.endsWith('.boardbridge-tmp'))).toEqual([]);
  }, 120_000);
});

describe('setup --write into JetBrains\' ~/.jetbrains/acp.json', () => {
  it('merges into the same-name entry and keeps its env', () => {
    const env = home();
    const file = path.join(env.HOME, '.jetbrains', 'acp.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ agent_servers: { 'Gemini CLI (board-aware)': { command: 'old', args: ['acp'], env: { GEMINI_API_KEY: 'k' } } } }, null, 4));
    const run = cli(['setup', 'jetbrains', '--agent', 'gemini', '--write'], env);
    expect(run.status, run.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('\n    "agent_servers": {');
    expect(JSON.parse(text).agent_servers['Gemini CLI (board-aware)']).toEqual({ command: process.execPath, args: ours('gemini'), env: { GEMINI_API_KEY: 'k' } });
  });
});

describe('setup --write for Neovim (a module of boardbridge\'s own)', () => {
  it('rewrites the module only when it differs, with a backup of the person\'s edits', () => {
    const env = home();
    const file = path.join(env.XDG_CONFIG_HOME, 'nvim', 'lua', 'boardbridge_acp.lua');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '-- edited by hand\nreturn {}\n');
    const run = cli(['setup', 'neovim', '--agent', 'claude', '--write'], env);
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('M.codecompanion = function()');
    expect(backupsOf(file).map((b) => readFileSync(path.join(path.dirname(file), b), 'utf8'))).toEqual(['-- edited by hand\nreturn {}\n']);
    const again = cli(['setup', 'neovim', '--agent', 'claude', '--write'], env);
    expect(again.stderr).toContain('already has it; nothing changed');
    expect(backupsOf(file)).toHaveLength(1);
  });
});

// Emacs itself, in a pty (util-linux `script`; -nw needs a terminal), reports the init file it
// loaded, whether boardbridge's file was loaded from it, and the person's own setting.
function emacsReads(env: Home): { init: string; loaded: boolean; mine: string } {
  const out = path.join(env.HOME, 'emacs-says.txt');
  const probe = `(progn (with-temp-file ${JSON.stringify(out)} (insert (format "%s\\n%s\\n%s" user-init-file (featurep 'boardbridge-acp) (bound-and-true-p my-setting)))) (kill-emacs 0))`;
  const quoted = `'${probe.replace(/'/g, `'\\''`)}'`;
  spawnSync('script', ['-qfec', `emacs -nw --eval ${quoted}`, '/dev/null'], { env: { PATH: '/usr/bin:/bin', TERM: 'xterm', ...env }, stdio: ['pipe', 'ignore', 'ignore'], timeout: 60_000 });
  const [init, loaded, mine] = readFileSync(out, 'utf8').split('\n');
  return { init, loaded: loaded === 't', mine };
}

describe('setup --write for Emacs finds the init file Emacs reads (emacs-nox loads it)', { timeout: 120_000 }, () => {
  const cases: { name: string; files: Record<string, string>; init: string; dir: string }[] = [
    { name: '$XDG_CONFIG_HOME/emacs/init.el alone: written there, no ~/.emacs.d created', files: { '.config/emacs/init.el': '(setq my-setting "xdg")\n' }, init: '.config/emacs/init.el', dir: '.config/emacs' },
    { name: '~/.emacs', files: { '.emacs': '(setq my-setting "dot-emacs")\n', '.config/emacs/init.el': '(setq my-setting "xdg")\n' }, init: '.emacs', dir: '.emacs.d' },
    { name: '~/.emacs.el before ~/.emacs', files: { '.emacs.el': '(setq my-setting "dot-emacs-el")\r\n', '.emacs': '(setq my-setting "dot-emacs")\n' }, init: '.emacs.el', dir: '.emacs.d' },
    { name: '~/.emacs.d/init.el before the XDG one', files: { '.emacs.d/init.el': '(setq my-setting "emacs-d")\n', '.config/emacs/init.el': '(setq my-setting "xdg")\n' }, init: '.emacs.d/init.el', dir: '.emacs.d' },
    { name: 'no init file at all: ~/.emacs.d/init.el, as Emacs would create', files: {}, init: '.emacs.d/init.el', dir: '.emacs.d' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const env = home();
      for (const [name, text] of Object.entries(c.files)) {
        mkdirSync(path.dirname(path.join(env.HOME, name)), { recursive: true });
        writeFileSync(path.join(env.HOME, name), text);
      }
      const run = cli(['setup', 'emacs', '--agent', 'claude', '--write'], env);
      expect(run.status, run.stderr).toBe(0);
      const init = path.join(env.HOME, c.init);
      const own = path.join(env.HOME, c.dir, 'boardbridge-acp.el');
      expect(existsSync(own)).toBe(true);
      const text = readFileSync(init, 'utf8');
      const eol = text.includes('\r\n') ? '\r\n' : '\n';
      expect(text).toBe(`${c.files[c.init] ?? ''}(load "${own}" nil t)${eol}`);
      if (c.dir === '.config/emacs') expect(existsSync(path.join(env.HOME, '.emacs.d'))).toBe(false);
      const emacs = emacsReads(env);
      expect(emacs.init).toBe(init);
      expect(emacs.loaded).toBe(true);
      expect(emacs.mine).toBe(c.files[c.init] ? /"(.*)"/.exec(c.files[c.init])![1] : 'nil');
      // A second run finds its line and changes nothing.
      const again = cli(['setup', 'emacs', '--agent', 'claude', '--write'], env);
      expect(again.stderr).toContain('already has it; nothing changed');
      expect(readFileSync(init, 'utf8')).toBe(text);
    });
  }

  it('appends the line when only a commented-out copy of it is there', () => {
    const env = home();
    const own = path.join(env.HOME, '.emacs.d', 'boardbridge-acp.el');
    writeFileSync(path.join(env.HOME, '.emacs'), `;; (load "${own}" nil t)\n`);
    const run = cli(['setup', 'emacs', '--agent', 'claude', '--write'], env);
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(path.join(env.HOME, '.emacs'), 'utf8')).toBe(`;; (load "${own}" nil t)\n(load "${own}" nil t)\n`);
    expect(emacsReads(env).loaded).toBe(true);
  });
});
