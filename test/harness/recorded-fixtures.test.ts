// Recorded ACP streams from the real agents, for the bridge's reducer tests and replay benchmark.
//
// Each test/fixtures/recorded/<agent>-<scenario>.jsonl holds every JSON-RPC line the agent wrote
// on stdout during a scripted session, in order (responses, agent→client requests and
// session/update notifications), with the temporary workspace path replaced by /home/user/Blink.
// Re-record with: RECORD_FIXTURES=1 npx vitest run test/harness/recorded-fixtures.test.ts
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PermissionPolicy } from '../support/acp-probe.js';
import type { AgentName } from '../support/agents.js';
import type { ModelScript } from '../support/model-server/index.js';
import { openProbeSession, waitFor } from './agent-session.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/recorded');
const recording = process.env.RECORD_FIXTURES === '1';
const stableWorkspace = '/home/user/Blink';

const blink = 'const int ledPin = LED_BUILTIN;\n\nvoid setup() {\n  pinMode(ledPin, OUTPUT);\n}\n\nvoid loop() {\n  digitalWrite(ledPin, HIGH);\n  delay(500);\n  digitalWrite(ledPin, LOW);\n  delay(500);\n}\n';

interface Scenario {
  agent: AgentName;
  name: string;
  script: (workspace: string) => ModelScript;
  /** Prompts in order; a prompt marked cancel is cancelled once the model is hanging on it. */
  prompts: Array<{ text: string; cancel?: boolean }>;
  permission?: PermissionPolicy;
}

const editSession = (agent: AgentName): Scenario => ({
  agent,
  name: 'edit-session',
  prompts: [{ text: 'Make the LED blink faster' }, { text: 'Add a pins header' }, { text: 'List the sketch folder' }],
  script: (ws) => {
    const sketch = join(ws, 'Blink.ino');
    const header = join(ws, 'pins.h');
    const claude = agent === 'claude-code-acp';
    return {
      turns: [
        {
          replies: [
            { say: 'Let me look at the sketch.', tool: claude ? { name: 'Read', input: { file_path: sketch } } : { name: 'read_file', input: { file_path: sketch } } },
            {
              tool: claude
                ? { name: 'Edit', input: { file_path: sketch, old_string: '  delay(500);\n  digitalWrite(ledPin, LOW);', new_string: '  delay(100);\n  digitalWrite(ledPin, LOW);' } }
                : { name: 'replace', input: { file_path: sketch, old_string: '  delay(500);\n  digitalWrite(ledPin, LOW);', new_string: '  delay(100);\n  digitalWrite(ledPin, LOW);', instruction: 'shorter on-time' } },
            },
            { say: 'The LED now stays on for 100 ms instead of 500 ms.' },
          ],
        },
        {
          replies: [
            { tool: { name: claude ? 'Write' : 'write_file', input: { file_path: header, content: '#pragma once\nconst int LED_PIN = 13;\n' } } },
            { say: 'Created pins.h with LED_PIN.' },
          ],
        },
        {
          replies: [
            { tool: claude ? { name: 'Bash', input: { command: 'ls', timeout: 10_000, description: 'List files' } } : { name: 'run_shell_command', input: { command: 'ls', description: 'List files' } } },
            { say: 'The folder holds Blink.ino and pins.h.' },
          ],
        },
      ],
    };
  },
});

const cancelSession = (agent: AgentName): Scenario => ({
  agent,
  name: 'cancel',
  prompts: [{ text: 'Think about timers forever', cancel: true }, { text: 'Just answer briefly' }],
  script: () => ({
    turns: [
      { whenUserSays: 'forever', replies: [{ hang: true }] },
      { whenUserSays: 'briefly', replies: [{ say: 'Timer1 drives pins 9 and 10.' }] },
    ],
  }),
});

const rejectedEdit = (agent: AgentName): Scenario => ({
  agent,
  name: 'rejected-edit',
  permission: 'reject_once',
  prompts: [{ text: 'Use pin 9 for the LED' }],
  script: (ws) => {
    const input = { file_path: join(ws, 'Blink.ino'), old_string: 'LED_BUILTIN', new_string: '9' };
    return {
      turns: [{
        replies: [
          { tool: agent === 'claude-code-acp' ? { name: 'Edit', input } : { name: 'replace', input: { ...input, instruction: 'use pin 9' } } },
          { say: 'Understood, I left the sketch unchanged.' },
        ],
      }],
    };
  },
});

const scenarios: Scenario[] = (['claude-code-acp', 'gemini'] as const).flatMap((agent) => [editSession(agent), cancelSession(agent), rejectedEdit(agent)]);

describe('recorded ACP streams from real agents', { timeout: 240_000 }, () => {
  it.runIf(recording).each(scenarios)('records $agent $name', async (scenario) => {
    const s = await openProbeSession(scenario.agent, scenario.script, { files: { 'Blink.ino': blink }, missingFile: 'empty-text', permission: scenario.permission });
    try {
      for (const prompt of scenario.prompts) {
        const pending = s.probe.prompt(s.sessionId, prompt.text);
        if (prompt.cancel) {
          await waitFor(() => s.model.requests.some((r) => r.handledAs === 'script' && !r.aborted && r.conversation?.userPrompts.at(-1)?.includes(prompt.text)));
          await s.probe.cancel(s.sessionId);
        }
        await pending;
      }
      // A recording of nothing would make the checks below pass on an empty file.
      expect(s.probe.lines.length).toBeGreaterThan(scenario.prompts.length);
      const text = s.probe.lines.map((line) => line.split(s.workspace).join(stableWorkspace)).join('\n') + '\n';
      mkdirSync(fixtures, { recursive: true });
      writeFileSync(join(fixtures, `${scenario.agent}-${scenario.name}.jsonl`), text);
    } finally {
      await s.close();
    }
  });

  it.each(scenarios)('the $agent $name recording holds one JSON-RPC 2.0 message per line, ending each prompt with a stop reason', (scenario) => {
    const path = join(fixtures, `${scenario.agent}-${scenario.name}.jsonl`);
    expect(existsSync(path), `${path} is missing: run RECORD_FIXTURES=1 npx vitest run test/harness/recorded-fixtures.test.ts`).toBe(true);
    const messages = readFileSync(path, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as { jsonrpc: string; method?: string; result?: { stopReason?: string } });
    expect(messages.every((m) => m.jsonrpc === '2.0')).toBe(true);
    const stopReasons = messages.flatMap((m) => (m.result?.stopReason ? [m.result.stopReason] : []));
    expect(stopReasons).toEqual(scenario.prompts.map((p) => (p.cancel ? 'cancelled' : 'end_turn')));
    expect(messages.filter((m) => m.method === 'session/update').length).toBeGreaterThan(3);
  });

  // Includes codex-acp-edit-session.jsonl, recorded by codex-acp.test.ts when codex is installed.
  it.each(readdirSync(fixtures).filter((name) => name.endsWith('.jsonl')))('%s holds only JSON-RPC 2.0 lines without temporary paths', (name) => {
    const text = readFileSync(join(fixtures, name), 'utf8');
    expect(text).not.toContain(tmpdir());
    const messages = text.trimEnd().split('\n').map((line) => JSON.parse(line) as { jsonrpc: string; result?: { stopReason?: string } });
    expect(messages.every((m) => m.jsonrpc === '2.0')).toBe(true);
    expect(messages.some((m) => m.result?.stopReason !== undefined)).toBe(true);
  });
});
