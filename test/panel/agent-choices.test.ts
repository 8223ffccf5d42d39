// What the panel offers when no agent is ready, how it asks for one, and how `serve`
// remembers the pick in the config file.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_AGENTS } from '../../bridge/agents/profiles.js';
import { agentChoices } from '../../bridge/panel/agent-choices.js';
import { parseClientMessage } from '../../bridge/panel/protocol.js';
import { rememberAgent } from '../../bridge/panel/remembered-agent.js';

describe('the agents a panel offers', () => {
  it('lists every known agent, installed or not, with one install and one login command from its profile', () => {
    const choices = agentChoices({ PATH: '/nonexistent', ANTHROPIC_API_KEY: 'sk-ant-x' });
    expect(choices.map((c) => c.id)).toEqual(KNOWN_AGENTS.map((p) => p.id));
    const gemini = choices.find((c) => c.id === 'gemini')!;
    expect(gemini).toMatchObject({ install: 'npm install -g @google/gemini-cli', keyEnv: ['GEMINI_API_KEY'], keySet: [], ready: false });
    // Gemini's profile offers only a key now: no login command, the advice goes with the key.
    expect(gemini.login).toBeUndefined();
    expect(gemini.keyNote).toMatch(/Google-account logins ended/);
    const claude = choices.find((c) => c.id === 'claude')!;
    expect(claude).toMatchObject({ keySet: ['ANTHROPIC_API_KEY'] });
    // The adapter installed here (Zed's claude-code-acp) has no `claude` command and no --cli: its login
    // is the Claude Code CLI of the SDK it ships with, a file that is there and is Claude Code.
    const [, cli] = /^node (\S+@anthropic-ai\/claude-agent-sdk\/cli\.js) \/login$/.exec(claude.login ?? '') ?? [];
    expect(cli, claude.login).toBeDefined();
    expect(execFileSync(process.execPath, [cli, '--version'], { env: { PATH: '', HOME: mkdtempSync(path.join(os.tmpdir(), 'bb-claude-')), CI: 'true' }, encoding: 'utf8' })).toMatch(/Claude Code/);
    expect(claude.loginNeeds).toBeUndefined();
    // A profile's advice after its login command is a note of its own, without the parentheses.
    for (const c of choices) {
      if (c.login) expect(c.login).not.toMatch(/\s{2}|\(/);
      if (c.loginNote) expect(c.loginNote).not.toMatch(/^\(|\)$/);
    }
    expect(choices.some((c) => c.loginNote)).toBe(true);
    // boardbridge's own node_modules holds these agents here, so they count as installed even without PATH.
    expect(gemini.installed).toBe(true);
    expect(gemini.command).toMatch(/node_modules\/\.bin\/gemini$/);
    // An agent that logs in with its own executable, found off PATH, logs in with the one found.
    const own = choices.find((c) => c.installed && c.login && KNOWN_AGENTS.find((p) => p.id === c.id)!.executables.some((e) => c.login!.includes(`/${e}`)));
    if (own) expect(own.loginNeeds).toBeUndefined();
  });
});

describe('start_agent from a page', () => {
  it('takes an agent to start, or none for the same again, and refuses anything else', () => {
    expect(parseClientMessage('{"type":"start_agent","agent":"claude"}')).toEqual({ type: 'start_agent', agent: 'claude' });
    expect(parseClientMessage('{"type":"start_agent"}')).toEqual({ type: 'start_agent' });
    expect(parseClientMessage('{"type":"start_agent","agent":7}')).toEqual({ error: 'start_agent takes the agent to start as a string (or none for the same again)' });
  });
});

describe('remembering the pick as defaultAgent', () => {
  const temp = () => mkdtempSync(path.join(os.tmpdir(), 'bb-remember-'));

  it('creates the config file and its folder when there is none', () => {
    const file = path.join(temp(), 'boardbridge', 'config.json');
    expect(rememberAgent('claude', file)).toBe(`Remembered claude as defaultAgent in ${file}: the next boardbridge serve starts it.`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ defaultAgent: 'claude' });
  });

  it('keeps the rest of an existing config file', () => {
    const dir = temp();
    const file = path.join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ defaultAgent: 'gemini', agents: { mine: { command: 'my-agent', args: ['--acp'] } } }));
    rememberAgent('codex', file);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ defaultAgent: 'codex', agents: { mine: { command: 'my-agent', args: ['--acp'] } } });
  });

  it('leaves a file it cannot read as an object alone, and says why', () => {
    const dir = temp();
    const list = path.join(dir, 'list.json');
    writeFileSync(list, '[1]');
    expect(rememberAgent('claude', list)).toBe(`(not remembering claude: ${list} does not hold a JSON object)`);
    expect(readFileSync(list, 'utf8')).toBe('[1]');
    const broken = path.join(dir, 'broken.json');
    writeFileSync(broken, '{ "defaultAgent": ');
    expect(rememberAgent('claude', broken)).toMatch(new RegExp(`^\\(not remembering claude in ${broken.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: .*JSON`));
    mkdirSync(path.join(dir, 'a-folder.json'));
    expect(rememberAgent('claude', path.join(dir, 'a-folder.json'))).toMatch(/^\(not remembering claude in .*a-folder\.json: EISDIR/);
  });
});
