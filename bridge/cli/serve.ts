// `boardbridge serve [project]`: the sidecar panel for IDEs that cannot host an
// extension (MPLAB X, OpenMV IDE) or for any browser beside the editor. One agent
// session per served project; every page that opens the printed URL shares it.
import type { Command } from 'commander';
import type { BridgeSession } from '../session/bridge-session.js';
import { EXIT, printError } from './errors.js';
import { addAgentFlags, selectionOf, type AgentFlags } from './session-setup.js';

interface ServeFlags extends AgentFlags {
  allow?: string;
  allowDevice?: boolean;
  fqbn?: string;
  port?: string;
  embedFrom?: string[];
}

export function registerServe(program: Command): void {
  addAgentFlags(
    program
      .command('serve')
      .description('serve the chat, diffs and pin table as a local web panel beside your IDE')
      .argument('[project]', 'the sketch or project folder (default: --workspace or the current folder)')
      .option('--port <n>', 'port on 127.0.0.1 (default: a free one)')
      .option('--allow <level>', 'grant without asking: reads, edits (inside the workspace) or all', 'none')
      .option('--allow-device', 'allow uploads and other device changes without asking')
      .option('--embed-from <source...>', 'pages that may show the panel in a frame, as CSP sources (an IDE webview: vscode-webview:)'),
  ).action(async (project: string | undefined, flags: ServeFlags) => {
    process.exitCode = await serve({ ...flags, workspace: project ?? flags.workspace });
  });
}

async function serve(flags: ServeFlags): Promise<number> {
  // Loaded here, not at start-up: other commands stay quick.
  const [{ BridgeSession: Session }, { BridgeHardware }, { ContextService }, { allProviders }, { policyFromFlags }, { launchFor }, { PanelHub }, { startPanelServer, checkedSources }] =
    await Promise.all([
      import('../session/bridge-session.js'),
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
  try {
    checkedSources(flags.embedFrom ?? []);
  } catch (error) {
    printError(error);
    return EXIT.usage;
  }
  const workspace = flags.workspace ?? process.cwd();
  const contexts = new ContextService(allProviders());
  const selection = selectionOf(flags);
  const hardware = new BridgeHardware();
  const hub = new PanelHub({ workspace, contexts, selection, serial: hardware.hub });
  let session: BridgeSession;
  try {
    session = await Session.start({
      launch: await launchFor(flags),
      workspace,
      policy: policyFromFlags(flags.allow, Boolean(flags.allowDevice)),
      ask: hub.ask,
      onEvent: hub.onEvent,
      hardware,
      contexts,
      selection,
    });
  } catch (error) {
    printError(error);
    return EXIT.error;
  }
  hub.attach(session);
  let server: Awaited<ReturnType<typeof startPanelServer>>;
  try {
    server = await startPanelServer({ hub, port, embedFrom: flags.embedFrom });
  } catch (error) {
    await session.close();
    printError(error);
    return EXIT.error;
  }
  process.stdout.write(`boardbridge panel for ${session.workspace}\n  ${server.url}\nOpen it in a browser beside your IDE. Ctrl-C stops the agent and the panel.\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  await hub.close();
  await session.close();
  await hardware.close();
  return EXIT.ok;
}
