// How to run each real ACP agent offline against the scripted model server (model-server/).
//
// BEHAVIOUR NOTES: filled in below from runs against the real packages.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type AgentName = 'claude-code-acp' | 'gemini';
export const agentNames: readonly AgentName[] = ['claude-code-acp', 'gemini'];

export interface AgentLaunch {
  command: string;
  args: string[];
  /** The complete environment: nothing is inherited from the test runner (no stray API keys, no IS_SANDBOX). */
  env: Record<string, string>;
}

// Walk up to the checkout's node_modules, so this also works when compiled into another folder.
function findRepoRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules/@zed-industries/claude-code-acp'))) return dir;
  }
  throw new Error(`no node_modules with the ACP agents above ${from}: run npm ci in the checkout`);
}
const repoRoot = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
const agentEntryPoints: Record<AgentName, string> = {
  'claude-code-acp': join(repoRoot, 'node_modules/@zed-industries/claude-code-acp/dist/index.js'),
  gemini: join(repoRoot, 'node_modules/@google/gemini-cli/bundle/gemini.js'),
};

/**
 * Command line and environment that point `name` at the model server at `modelUrl`, with a
 * fresh HOME under `tmpRoot` (created, with the settings files the agent needs).
 */
export function agentLaunch(name: AgentName, modelUrl: string, tmpRoot: string): AgentLaunch {
  const home = join(tmpRoot, 'home');
  mkdirSync(home, { recursive: true });
  const base: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    TMPDIR: join(tmpRoot, 'tmp'),
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
  };
  mkdirSync(base.TMPDIR as string, { recursive: true });
  const command = process.execPath;
  if (name === 'claude-code-acp') {
    writeJson(join(home, '.claude.json'), { hasCompletedOnboarding: true, bypassPermissionsModeAccepted: false });
    writeJson(join(home, '.claude/settings.json'), { permissions: { defaultMode: 'default' } });
    return {
      command,
      args: [agentEntryPoints[name]],
      env: {
        ...base,
        ANTHROPIC_BASE_URL: modelUrl,
        ANTHROPIC_API_KEY: 'sk-ant-fake-key-for-tests',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
      },
    };
  }
  writeJson(join(home, '.gemini/settings.json'), {
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    security: { auth: { selectedType: 'gemini-api-key' } },
  });
  return {
    command,
    args: [agentEntryPoints[name], '--acp', '--skip-trust'],
    env: {
      ...base,
      GEMINI_CLI_HOME: home,
      GOOGLE_GEMINI_BASE_URL: modelUrl,
      GEMINI_API_KEY: 'fake-gemini-key-for-tests',
      GEMINI_CLI_NO_RELAUNCH: 'true',
    },
  };
}

function writeJson(path: string, value: object): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2));
}
