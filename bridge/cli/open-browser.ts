// Opens the panel in the person's browser, as `serve` promises: $BROWSER when set (the
// convention many tools follow, also how tests watch it), else the desktop's opener.
// Nothing is opened without a desktop (CI, ssh) or with --no-open; the URL is printed anyway.
import { spawn } from 'node:child_process';

export interface OpenDecision {
  command?: string[];
  /** Why nothing is opened, for the line `serve` prints. */
  skipped?: string;
}

export function browserCommand(url: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): OpenDecision {
  if (env.BROWSER) return { command: [env.BROWSER, url] };
  if (env.CI) return { skipped: 'CI is set' };
  if (platform === 'darwin') return { command: ['open', url] };
  if (platform === 'win32') return { command: ['cmd', '/c', 'start', '""', url] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return { skipped: 'no desktop (DISPLAY is not set)' };
  return { command: ['xdg-open', url] };
}

/** Starts the browser and leaves it running; resolves with a problem to report, if any. */
export function openBrowser(command: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { stdio: 'ignore', detached: true });
    child.once('error', (error) => resolve(`could not run ${command[0]} (${error.message})`));
    child.once('spawn', () => {
      child.unref();
      resolve(undefined);
    });
  });
}
