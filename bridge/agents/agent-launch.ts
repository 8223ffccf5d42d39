// How an agent is started: the command resolve.ts found for it (on PATH, in a project, by npx,
// from the config or the ACP Registry), with the archive a registry agent needs first.
import type { AgentProfile } from './profiles.js';

export interface AgentLaunch {
  id: string;
  title: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  profile?: AgentProfile;
  via: 'path' | 'project' | 'npx' | 'command' | 'config' | 'registry';
  /** A registry agent's archive to download before the first start. */
  install?: BinaryInstall;
}

export interface BinaryInstall {
  archive: string;
  sha256?: string;
  dir: string;
  cmd: string;
}
