// The login command for an agent as a person can run it where it is shown: the adapter's own
// login (what its package really offers), and the executable as it is reached from here — its
// name on PATH, `npx <name>` inside the clone whose node_modules hold it, else its full path.
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isInsideFolder } from '../../platform/system-paths.js';
import { shellWord } from '../shell-words.js';
import { shownAt } from '../cli-entry.js';
import { locate, packageRoot } from './locate.js';

export { shownAt };
import { packageOf } from './package-version.js';
import { profileLogin, type AgentProfile } from './profiles.js';

export interface LoginHint {
  /** The command to run once. */
  login?: string;
  /** Advice that goes with it. */
  loginNote?: string;
  /** Advice that goes with the key, when the only "login" is a key. */
  keyNote?: string;
}

// Adapters whose login is not their profile's. Zed's @zed-industries/claude-code-acp (0.16.2 here)
// has no `--cli` (claude-agent-acp added it: "support --cli for node (#358)", after 0.19.2); its own
// terminal login (dist/acp-agent.js, initialize → authMethods[0]._meta["terminal-auth"]) runs the
// Claude Code CLI of the @anthropic-ai/claude-agent-sdk it depends on.
const PACKAGE_LOGINS: Record<string, (adapter: string) => string | undefined> = {
  '@zed-industries/claude-code-acp': (adapter) => {
    try {
      return `node ${shellWord(createRequire(realpathSync(adapter)).resolve('@anthropic-ai/claude-agent-sdk/cli.js'))} /login`;
    } catch {
      return undefined;
    }
  },
};

export function loginHint(profile: AgentProfile, env: NodeJS.ProcessEnv = process.env, cwd: string = shownAt(env)): LoginHint {
  const hint: LoginHint = profileLogin(profile);
  const found = locate(profile, env);
  if (!hint.login || !found) return hint;
  const own = PACKAGE_LOGINS[packageOf(found.command)?.name ?? '']?.(found.command);
  if (own) return { ...hint, login: own };
  const [program] = hint.login.split(' ', 1);
  // `npm start` puts node_modules/.bin on the agent's PATH, not on the person's.
  const bin = path.join(packageRoot(), 'node_modules', '.bin');
  if ((found.via !== 'project' && path.dirname(found.command) !== bin) || !profile.executables.includes(program)) return hint;
  const local = path.join(bin, program);
  return { ...hint, login: `${localCommand(local, cwd)}${hint.login.slice(program.length)}` };
}


/** A program in boardbridge's own node_modules/.bin as a terminal at `cwd` runs it. */
export function localCommand(file: string, cwd: string = shownAt()): string {
  return isInsideFolder(cwd, packageRoot()) ? `npx ${path.basename(file)}` : shellWord(file);
}
