// What the board commands need from whoever runs them: the bridge's terminal service, the CLI.
import type { InstalledPlatforms } from '../../platform/arduino/platforms.js';
import type { SimulationRecord } from './simulation-record.js';
import type { SerialHub } from '../serial/hub.js';
import type { BuildTool } from '../toolchains/build-tool.js';
import type { UploadConsent, UploadTarget } from '../upload/consent.js';

export interface BoardCommandDeps {
  /** The one hub of the running bridge (or the CLI's own). */
  hub: SerialHub;
  /** The toolchain; `detectBuildTool()` on first use when absent. */
  tool?: BuildTool;
  /**
   * The permission broker: asks the person `question` and returns their consent, or undefined
   * when they refused. Commands never upload without it.
   */
  requestUploadConsent(target: UploadTarget, question: string): Promise<UploadConsent | undefined>;
  /**
   * The Arduino context provider's installed platforms, so a recipe upload runs what the agent's
   * board context describes; the provider's default discovery when absent.
   */
  arduinoPlatforms?(): Promise<InstalledPlatforms>;
  /** How this caller is named as a port's owner, e.g. "terminal 3" or "CLI". */
  owner?: string;
  /** Told of every finished simulation (the session turns it into a `simulation` event). */
  onSimulation?(record: SimulationRecord): void;
}
