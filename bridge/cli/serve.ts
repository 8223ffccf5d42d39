// `boardbridge serve [project]`: the sidecar panel for IDEs that cannot host an
// extension (MPLAB X, OpenMV IDE) or for any browser beside the editor. One agent
// session per served project; every page that opens the printed URL shares it.
// With `--follow mplabx|openmv` the served project follows the one the IDE records
// in its settings file (bridge/panel/ide-follow.ts, following-panel.ts).
import type { Command } from 'commander';
import type { AgentLaunch } from '../agents/resolve.js';
import type { Selection } from '../../context-providers/types.js';
import type { FollowingPanelOptions, ServedProject } from '../panel/following-panel.js';
import type { Followed } from '../panel/ide-follow.js';
import type { IdeKind } from '../panel/ide-projects.js';
import { EXIT, printError } from './errors.js';
import { addAgentFlags, selectionOf, type AgentFlags } from './session-setup.js';
import { addWorkspaceOption, workspaceOf } from './workspace-option.js';

interface ServeFlags extends AgentFlags {
  allow?: string;
  allowDevice?: boolean;
  fqbn?: string;
  port?: string;
  embedFrom?: string[];
  follow?: string;
  ideSettings?: string;
  idleExit?: string;
  open?: boolean;
  rememberAgent?: boolean;
}

const FOLLOWABLE: IdeKind[] = ['mplabx', 'openmv'];

const FOLLOW_HELP = `
Examples:
  boardbridge serve path/to/Blink.X
  boardbridge serve --follow mplabx              follow MPLAB X's main project (or its only open one)
  boardbridge serve --follow openmv --board OPENMV4
                                                 follow OpenMV IDE's latest script and serial port

--follow reads the file the IDE records its project in and switches the panel (same URL)
when it changes, after the agent's current turn:
  mplabx  ~/.mplab_ide/dev/v*/config/Preferences/org/netbeans/modules/projectui.properties
          (Windows %APPDATA%\\mplab_ide\\dev\\v*, macOS ~/Library/Application Support/mplab_ide/dev/v*);
          written within a second of opening a project or setting the main project
  openmv  ~/.config/OpenMV/OpenMVIDE.ini ($XDG_CONFIG_HOME; Windows %APPDATA%\\OpenMV);
          written only when OpenMV IDE exits or its Options dialog closes
`;

export function registerServe(program: Command): void {
  const command = addAgentFlags(
    program
      .command('serve')
      .description('serve the chat, diffs and pin table as a local web panel beside your IDE; --follow mplabx|openmv follows the project the IDE has open')
      .option('--port <n>', 'port on 127.0.0.1 (default: a free one)')
      .option('--allow <level>', 'grant without asking: reads, edits (inside the workspace) or all', 'none')
      .option('--allow-device', 'allow uploads and other device changes without asking')
      .option('--embed-from <source...>', 'pages that may show the panel in a frame, as CSP sources (an IDE webview: vscode-webview:)')
      .option('--follow <ide>', 'serve the project the IDE has open and switch when it changes: mplabx or openmv')
      .option('--ide-settings <file>', "with --follow: the IDE's settings file, if not in its usual place")
      .option('--no-open', 'print the URL without opening a browser (a browser opens when there is a desktop; $BROWSER picks it)')
      .option('--no-remember-agent', 'do not save the agent picked on the panel as defaultAgent in the config file (an IDE keeps it in its own setting)')
      .option('--idle-exit <seconds>', 'stop when no page and no IDE window has been connected for this long (an IDE extension that reloads re-attaches meanwhile)')
      .addHelpText('after', FOLLOW_HELP),
  );
  addWorkspaceOption(command, true).action(async (where: string | undefined, flags: ServeFlags) => {
    process.exitCode = await serve({ ...flags, workspace: workspaceOf(command, where, flags) });
  });
}

async function serve(flags: ServeFlags): Promise<number> {
  // Loaded with serve, not at every command's start-up (it reads the agent config with zod).
  const { rememberAgent } = await import('../panel/remembered-agent.js');
  // Loaded here, not at start-up: other commands stay quick.
  const [{ BridgeSession: Session }, { checkWorkspace }, { BridgeHardware }, { ContextService }, { allProviders }, { policyFromFlags }, { launchFor }, { PanelHub }, { startPanelServer, checkedSources }] =
    await Promise.all([
      import('../session/bridge-session.js'),
      import('../session/workspace-check.js'),
      import('../hardware/bridge-hardware.js'),
      import('../context/context-service.js'),
      import('../../context-providers/index.js'),
      import('../services/permission/broker.js'),
      import('./session-setup.js'),
      import('../panel/panel-hub.js'),
      import('../panel/server.js'),
    ]);
  const port = flags.port === undefined ? 0 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    printError(new Error(`--port takes a port number from 0 to 65535 (got "${flags.port}")`));
    return EXIT.error;
  }
  const idleExitSeconds = flags.idleExit === undefined ? undefined : Number(flags.idleExit);
  try {
    checkedSources(flags.embedFrom ?? []);
    checkFollowFlags(flags);
    if (idleExitSeconds !== undefined && !(Number.isFinite(idleExitSeconds) && idleExitSeconds > 0)) throw new Error(`--idle-exit takes a number of seconds above 0 (got "${flags.idleExit}")`);
  } catch (error) {
    printError(error);
    return EXIT.usage;
  }
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const following = flags.follow ? await startFollowing(flags.follow as IdeKind, flags.ideSettings, say) : undefined;
  const first = following?.first?.kind === 'project' ? following.first : undefined;
  const workspace = first?.workspace ?? flags.workspace ?? process.cwd();
  const contexts = new ContextService(allProviders());
  const hardware = new BridgeHardware();
  const policy = policyFromFlags(flags.allow, Boolean(flags.allowDevice));
  // The agent picked on the panel, once one was: follow switches and "try again" start it.
  let chosen: string | undefined;
  const launchOf = async (agent: string | undefined): Promise<AgentLaunch> => {
    const id = agent ?? chosen;
    if (!id) return launchFor(flags);
    const { loadConfig, resolveAgent } = await import('../agents/resolve.js');
    return resolveAgent({ agent: id, config: await loadConfig(flags.config), allowNpx: true });
  };
  // One project's hub; it starts the project's sessions. The first project's hub stays up when
  // its agent cannot start (the panel offers the others); a follow switch (`strict`) does not happen then.
  const newHub = (workspace: string, followed: Selection, strict: boolean) => {
    const selection = { ...selectionOf(flags), ...followed };
    const hub: InstanceType<typeof PanelHub> = new PanelHub({
      workspace,
      contexts,
      selection,
      serial: hardware.hub,
      // The circuit view's Run compiles and simulates; it never touches a device.
      boardDeps: { hub: hardware.hub, owner: 'the panel', requestUploadConsent: async () => undefined },
      startAgent: async (agent) => {
        try {
          const session = await Session.start({ launch: await launchOf(agent), workspace, policy, ask: hub.ask, askElicitation: hub.askElicitation, onEvent: hub.onEvent, hardware, contexts, selection: hub.selection, sketch: flags.sketch });
          if (agent && agent !== chosen) {
            chosen = agent;
            if (flags.rememberAgent !== false) say(rememberAgent(agent, flags.config));
          }
          return session;
        } catch (error) {
          printError(error);
          if (!strict) say('The panel lists the agents boardbridge knows, with how to install and log in to each; start one from there.');
          throw error;
        }
      },
    });
    return hub;
  };
  const startProject = async (workspace: string, followed: Selection) => {
    const hub = newHub(workspace, followed, true);
    const failure = await hub.startAgent();
    if (failure) {
      await hub.close();
      throw failure;
    }
    return { hub };
  };
  let served: { hub: InstanceType<typeof PanelHub> };
  try {
    checkWorkspace(workspace);
    served = { hub: newHub(workspace, first?.selection ?? {}, false) };
  } catch (error) {
    following?.follower.close();
    await hardware.close();
    printError(error);
    return EXIT.error;
  }
  // The panel comes up while the agent starts: a slow start (npx fetching it) shows there as starting.
  void served.hub.startAgent();
  const panel = following?.panel(served, startProject);
  let server: Awaited<ReturnType<typeof startPanelServer>>;
  // Stopping comes from Ctrl-C, SIGTERM, or (with --idle-exit) no page and no IDE window for that long.
  let stop!: (why?: string) => void;
  const stopped = new Promise<string | undefined>((resolve) => (stop = resolve));
  const idle = idleExitSeconds === undefined ? undefined : new IdleTimer(idleExitSeconds * 1000, () => stop(`no page and no IDE window connected for ${idleExitSeconds} s (--idle-exit)`));
  try {
    server = await startPanelServer({ hub: panel ?? served.hub, port, embedFrom: flags.embedFrom, onPages: (count) => idle?.pages(count) });
  } catch (error) {
    following?.follower.close();
    await (panel ? panel.close() : served.hub.close());
    await hardware.close();
    printError(error);
    return EXIT.error;
  }
  process.stdout.write(`boardbridge panel for ${served.hub.workspace}\n  ${server.url}\nOpen it in a browser beside your IDE. Ctrl-C stops the agent and the panel.\n`);
  if (flags.open !== false) await openPanel(server.url, say);
  following?.started(served.hub.workspace);
  idle?.start();
  process.once('SIGINT', () => stop());
  process.once('SIGTERM', () => stop());
  const why = await stopped;
  idle?.stop();
  if (why) say(`boardbridge serve stops: ${why}`);
  following?.follower.close();
  await server.close();
  await (panel ? panel.close() : served.hub.close());
  await hardware.close();
  return EXIT.ok;
}

async function openPanel(url: string, say: (line: string) => void): Promise<void> {
  const { browserCommand, openBrowser } = await import('./open-browser.js');
  const decision = browserCommand(url);
  if (!decision.command) return say(`(not opening a browser: ${decision.skipped})`);
  const problem = await openBrowser(decision.command);
  say(problem ? `(could not open a browser: ${problem}; open the URL yourself)` : `(opened with ${decision.command[0]})`);
}

/**
 * Runs `onIdle` once nothing (no page, no IDE window) has been connected for `ms`, counted
 * from `start()` or from the last one leaving; one connecting cancels the countdown.
 */
class IdleTimer {
  private timer?: NodeJS.Timeout;
  private connected = 0;
  private started = false;

  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {}

  start(): void {
    this.started = true;
    this.pages(this.connected);
  }

  pages(count: number): void {
    this.connected = count;
    if (count > 0) return this.cancel();
    if (this.started && !this.timer) this.timer = setTimeout(this.onIdle, this.ms);
  }

  /** Ends the countdown for good (the bridge is stopping). */
  stop(): void {
    this.started = false;
    this.cancel();
  }

  private cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

function checkFollowFlags(flags: ServeFlags): void {
  if (flags.follow !== undefined && !FOLLOWABLE.includes(flags.follow as IdeKind)) throw new Error(`--follow takes ${FOLLOWABLE.join(' or ')} (got "${flags.follow}")`);
  if (flags.ideSettings !== undefined && flags.follow === undefined) throw new Error('--ide-settings needs --follow mplabx or --follow openmv');
}

/**
 * Reads what the IDE has open before the first session starts; changes that come before
 * the panel exists wait for it. `panel()` makes the FollowingPanel once the first project runs,
 * `started()` tells it what the IDE had open then.
 */
async function startFollowing(ide: IdeKind, settingsFile: string | undefined, say: (line: string) => void) {
  const [{ IdeFollower }, { FollowingPanel }, { IDE_TITLE }] = await Promise.all([import('../panel/ide-follow.js'), import('../panel/following-panel.js'), import('../panel/ide-projects.js')]);
  const title = IDE_TITLE[ide];
  let panel: InstanceType<typeof FollowingPanel> | undefined;
  let early: Followed | undefined;
  const follower = new IdeFollower({
    ide,
    settingsFile,
    onChange: (followed) => (panel ? panel.follow(followed) : (early = followed)),
    onProblem: (message) => (panel ? panel.problem(message) : say(message)),
  });
  const first = await follower.start();
  return {
    follower,
    first,
    panel(served: ServedProject, start: FollowingPanelOptions['start']) {
      return (panel = new FollowingPanel(served, { ide: title, start, log: say }));
    },
    started(workspace: string) {
      if (first?.kind === 'project') panel!.tell(`Following ${title}: ${first.name}${first.detail ? ` (${first.detail})` : ''}`);
      else if (first) panel!.tell(`${first.reason} — the panel serves ${workspace} until ${title} has a project`);
      else panel!.tell(`${title}'s settings cannot be read yet — the panel serves ${workspace} until they can`);
      if (early) panel!.follow(early);
    },
  };
}
