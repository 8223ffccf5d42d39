// The bridge's one set of board services: one serial hub, and the board commands
// built on it, shared by ACP terminals, the MCP server and the CLI. Every
// operation that changes a device asks through the consent function it is given.
import { boardCommands, grantUpload, SerialHub, type UploadTarget } from '../../boards/index.js';
import type { CommandTable, InProcessCommand } from '../../boards/command.js';
import { shownText } from '../../boards/consent-text.js';
import type { SimulationRecord } from '../../boards/commands/simulate-command.js';
import { micropythonCommands } from '../../boards/micropython/commands.js';
import { openHubLink } from '../../boards/micropython/hub-link.js';
import { RunningScripts } from '../../boards/micropython/run-script.js';
import { mplabxCommands } from '../../boards/mplabx/commands.js';
import { grantProgram } from '../../boards/mplabx/program-consent.js';
import type { DeviceConsent } from '../mcp/hardware-tool.js';

export class BridgeHardware {
  readonly hub = new SerialHub();
  readonly runningScripts = new RunningScripts();

  /**
   * Board commands for one face; `owner` names it as a port holder ("agent terminal", "CLI").
   * `onSimulation` hears of every finished `simulate` run (a session's `simulation` event).
   */
  commands(consent: DeviceConsent, owner: string, onSimulation?: (record: SimulationRecord) => void): CommandTable {
    const table: CommandTable = new Map([
      ...boardCommands({
        hub: this.hub,
        owner,
        ...(onSimulation ? { onSimulation } : {}),
        requestUploadConsent: async (target: UploadTarget, question: string) => {
          const answer = await consent('upload', question);
          return answer.granted ? grantUpload(target, 'the person, through the permission broker') : undefined;
        },
      }),
      ...mplabxCommands({
        requestProgramConsent: async (target, question) => {
          const answer = await consent('program', question);
          return answer.granted ? grantProgram(target, 'the person, through the permission broker') : undefined;
        },
      }),
      // Scripts run through the hub too: one owner per port, whoever asks.
      ...micropythonCommands({ running: this.runningScripts, openLink: (path) => openHubLink(this.hub, path, `${owner}: run-script`) }),
    ]);
    const runScript = table.get('run-script');
    if (runScript) table.set('run-script', withConsent(runScript, consent, 'run_script', (argv) => `run ${argv[0] === undefined ? 'a script' : shownText(argv[0])} on the camera${portOf(argv)} (it replaces what runs there)?`));
    return table;
  }

  async close(): Promise<void> {
    await this.hub.close();
  }
}

function portOf(argv: string[]): string {
  const i = argv.findIndex((a) => a === '--port' || a === '-p');
  return i >= 0 && argv[i + 1] ? ` on ${shownText(argv[i + 1])}` : '';
}

function withConsent(command: InProcessCommand, consent: DeviceConsent, tool: string, question: (argv: string[]) => string): InProcessCommand {
  return async (argv, io) => {
    const answer = await consent(tool, question(argv));
    if (!answer.granted) {
      io.write(`Not done: ${question(argv)} was not allowed${answer.reason ? ` (${answer.reason})` : ''}.\n`);
      return 1;
    }
    return command(argv, io);
  };
}
