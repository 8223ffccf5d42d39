// The bridge's one set of board services: one serial hub, and the board commands
// built on it, shared by ACP terminals, the MCP server and the CLI. Every
// operation that changes a device or runs the project's own code asks through the
// consent function it is given, as its entry in BOARD_OPERATIONS says.
import { boardCommands, grantUpload, SerialHub, type UploadTarget } from '../../boards/index.js';
import type { CommandTable, InProcessCommand } from '../../boards/command.js';
import type { SimulationRecord } from '../../boards/commands/simulate-command.js';
import { micropythonCommands } from '../../boards/micropython/commands.js';
import { openHubLink } from '../../boards/micropython/hub-link.js';
import { RunningScripts } from '../../boards/micropython/run-script.js';
import { mplabxCommands } from '../../boards/mplabx/commands.js';
import { grantProgram } from '../../boards/mplabx/program-consent.js';
import { BOARD_OPERATIONS, consentBefore, type BoardOperation, type ConsentKind } from '../../boards/operations.js';

/**
 * Asks the person about one operation: `kind` says whether it changes a device (--allow-device)
 * or runs the project's own code here (--allow all, as a terminal `make`).
 */
export type DeviceConsent = (toolName: string, question: string, kind: ConsentKind) => Promise<{ granted: boolean; reason?: string }>;

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
          const answer = await consent('upload', question, 'device');
          return answer.granted ? grantUpload(target, 'the person, through the permission broker') : undefined;
        },
      }),
      ...mplabxCommands({
        requestProgramConsent: async (target, question) => {
          const answer = await consent('program', question, 'device');
          return answer.granted ? grantProgram(target, 'the person, through the permission broker') : undefined;
        },
      }),
      // Scripts run through the hub too: one owner per port, whoever asks.
      ...micropythonCommands({ running: this.runningScripts, openLink: (path) => openHubLink(this.hub, path, `${owner}: run-script`) }),
    ]);
    for (const operation of BOARD_OPERATIONS) {
      const command = operation.command && table.get(operation.command);
      if (command && consentBefore(operation)) table.set(operation.command!, withConsent(command, consent, operation));
    }
    return table;
  }

  async close(): Promise<void> {
    await this.hub.close();
  }
}

function withConsent(command: InProcessCommand, consent: DeviceConsent, operation: BoardOperation): InProcessCommand {
  const kind = consentBefore(operation)!;
  return async (argv, io) => {
    const question = operation.question?.(argv) ?? `run boardbridge ${operation.command} ${argv.join(' ')}?`;
    const answer = await consent(operation.tool ?? operation.command!, question, kind);
    if (!answer.granted) {
      io.write(`Not done: ${question} was not allowed${answer.reason ? ` (${answer.reason})` : ''}.\n`);
      return 1;
    }
    return command(argv, io);
  };
}
