// The bridge's one set of board services: one serial hub, and the per-session operation context
// built on it (boards/operation-context.ts), which every face of a session — its terminals, its
// MCP tools — runs board operations through: one hub, one set of serial cursors, one simulation.
// Every operation that changes a device or runs the project's own code asks through the consent
// function it is given, as its entry in BOARD_OPERATIONS says.
import { grantUpload, SerialHub } from '../../boards/index.js';
import type { CommandTable } from '../../boards/command.js';
import type { SimulationRecord } from '../../boards/commands/simulate-command.js';
import { openHubLink } from '../../boards/micropython/hub-link.js';
import { RunningScripts } from '../../boards/micropython/run-script.js';
import { grantProgram } from '../../boards/mplabx/program-consent.js';
import { asFace, operationContext, SimulationSlot, type OperationConsent, type OperationContext } from '../../boards/operation-context.js';
import { terminalCommands } from '../../boards/operation-faces.js';
import { AgentSerial } from './agent-serial.js';

/**
 * Asks the person about one operation: `kind` says whether it changes a device (--allow-device)
 * or runs the project's own code here (--allow all, as a terminal `make`).
 */
export type DeviceConsent = OperationConsent;

export interface SessionOperationsOptions {
  consent: DeviceConsent;
  /** Hears of every finished `simulate` run (a session's `simulation` event). */
  onSimulation?: (record: SimulationRecord) => void;
}

/**
 * What a session owns of the board operations, made once per session (the session kit does):
 * the one context (and so the one simulation) its terminals and its MCP tools share, and its
 * end with the session.
 */
export interface SessionOperations {
  readonly context: OperationContext;
  /** The same context as one face names itself as a port holder ("the agent (MCP)"). */
  face(owner: string): OperationContext;
  /** The in-process `boardbridge …` commands of the session's terminals. */
  terminalCommands(): CommandTable;
  /** Ends the simulation and releases the agent's serial leases. */
  close(): Promise<void>;
}

export class BridgeHardware {
  readonly hub = new SerialHub();
  readonly runningScripts = new RunningScripts();

  /** A context on this hub; `owner` names the face as a port holder ("the agent (terminal)", "CLI"). */
  context(consent: DeviceConsent, owner: string, more: Partial<Pick<OperationContext, 'serial' | 'simulation' | 'onSimulation'>> = {}): OperationContext {
    return operationContext({
      hub: this.hub,
      owner,
      consent,
      running: this.runningScripts,
      simulation: more.simulation ?? new SimulationSlot(),
      ...(more.serial ? { serial: more.serial } : {}),
      ...(more.onSimulation ? { onSimulation: more.onSimulation } : {}),
      requestUploadConsent: async (target, question) => {
        const answer = await consent('upload', question, 'device');
        return answer.granted ? grantUpload(target, 'the person, through the permission broker') : undefined;
      },
      requestProgramConsent: async (target, question) => {
        const answer = await consent('program', question, 'device');
        return answer.granted ? grantProgram(target, 'the person, through the permission broker') : undefined;
      },
      // Scripts run through the hub too: one owner per port, whoever asks.
      openLink: (path) => openHubLink(this.hub, path, `${owner}: run-script`),
    });
  }

  /** The board operations of one session (the session kit makes this once). */
  session(options: SessionOperationsOptions): SessionOperations {
    const serial = new AgentSerial(this.hub);
    const context = this.context(options.consent, 'the agent', { serial, ...(options.onSimulation ? { onSimulation: options.onSimulation } : {}) });
    const face = (owner: string) => withOpenLink(this, asFace(context, owner));
    return {
      context,
      face,
      terminalCommands: () => terminalCommands(face('the agent (terminal)')),
      close: async () => {
        context.simulation.end();
        await serial.close();
      },
    };
  }

  /** Board commands for one face of its own (the CLI, a test): a context of their own. */
  commands(consent: DeviceConsent, owner: string, onSimulation?: (record: SimulationRecord) => void): CommandTable {
    return terminalCommands(this.context(consent, owner, onSimulation ? { onSimulation } : {}));
  }

  async close(): Promise<void> {
    await this.hub.close();
  }
}

// The face's own name on the ports its scripts open.
function withOpenLink(hardware: BridgeHardware, context: OperationContext): OperationContext {
  return { ...context, openLink: (path) => openHubLink(hardware.hub, path, `${context.owner}: run-script`) };
}
