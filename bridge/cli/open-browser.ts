// Opens a web page in the person's browser: the panel `serve` promises, or a page an
// agent's URL elicitation names once the person said yes. $BROWSER when set (the
// convention many tools follow, also how tests watch it), else the desktop's opener.
// Nothing is opened without a desktop (CI, ssh) or with --no-open; the URL is printed anyway.
// Only http(s) addresses are opened (never file:, javascript: or an app's own scheme), and
// never through a shell: the opener gets the normalised URL as one argument of its own.
import { spawn } from 'node:child_process';

export interface OpenDecision {
  command?: string[];
  /** Why nothing is opened, for the line the face prints. */
  skipped?: string;
}

/** The address as it would be opened (normalised: spaces, quotes and the like percent-encoded), or why it is not opened. */
export function openableUrl(text: string): { url: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: 'it is not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `only http and https pages are opened, this is a ${url.protocol} address` };
  return { url: url.href };
}

export function browserCommand(text: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): OpenDecision {
  const openable = openableUrl(text);
  if ('problem' in openable) return { skipped: openable.problem };
  const { url } = openable;
  if (env.BROWSER) return { command: [env.BROWSER, url] };
  if (env.CI) return { skipped: 'CI is set' };
  if (platform === 'darwin') return { command: ['open', url] };
  // Not `cmd /c start "" <url>`: cmd.exe reads `&`, `|` and `^` in the URL as its own syntax
  // and would run what follows. rundll32 is a program started directly (CreateProcess, no
  // shell), and url.dll's FileProtocolHandler hands the address to the default browser.
  if (platform === 'win32') return { command: ['rundll32', 'url.dll,FileProtocolHandler', url] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return { skipped: 'no desktop (DISPLAY is not set)' };
  return { command: ['xdg-open', url] };
}

/** Starts the browser (no shell) and leaves it running; resolves with a problem to report, if any. */
export function openBrowser(command: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { stdio: 'ignore', detached: true, shell: false });
    child.once('error', (error) => resolve(`could not run ${command[0]} (${error.message})`));
    child.once('spawn', () => {
      child.unref();
      resolve(undefined);
    });
  });
}
