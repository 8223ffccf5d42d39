// The boards/ API the bridge, its MCP server and the CLI use.
export type { CommandIo, CommandTable, InProcessCommand } from './command.js';

export { SerialHub, type SerialHubOptions } from './serial/hub.js';
export { PortLease, type ModemSignals } from './serial/port-lease.js';
export type { PortState } from './serial/port-entry.js';
export { installedBoardIdentifications } from './serial/installed-boards.js';
export { PortReader, type ReadResult, type SerialLine, type ExpectMatch } from './serial/reader.js';
export { portSettings, DEFAULT_SETTINGS, type PortSettings, type Parity, type DataBits, type StopBits } from './serial/port-settings.js';
export {
  listPorts,
  boardIdentifications,
  matchBoards,
  normaliseUsbId,
  type BoardIdentification,
  type SerialPortInfo,
  type PortListing,
} from './serial/port-list.js';
export { touch1200, waitForUploadPort, type WaitForUploadPortOptions } from './serial/upload-port.js';
export {
  SerialPortError,
  PortBusyError,
  PortDisconnectedError,
  PortClosedError,
  PortOpenError,
  ExpectTimeoutError,
} from './serial/errors.js';

export { compile, type CompileReport } from './compile.js';
export {
  ToolchainError,
  type BuildTool,
  type BuildToolName,
  type CompileRequest,
  type CompileResult,
  type MemoryUse,
  type UsedLibrary,
} from './toolchains/build-tool.js';
export { detectBuildTool, defaultIdeFolders, type DetectOptions } from './toolchains/detect.js';
export { findExecutable, isExecutable } from './executables.js';
export { ArduinoBuilder, debianLayout, type ArduinoBuilderLayout } from './toolchains/arduino-builder.js';
export { ArduinoCli } from './toolchains/arduino-cli.js';
export type { DetectedPort, InstalledLibrary, InstalledPlatform } from './toolchains/arduino-cli-json.js';
export {
  parseGccDiagnostics,
  diagnosticToFinding,
  type CompilerDiagnostic,
  type DiagnosticContext,
  type DiagnosticNote,
  type DiagnosticSeverity,
} from './toolchains/gcc-diagnostics.js';
export { memoryFindings } from './toolchains/memory.js';
export { locateSketch, buildFolder, sketchDefaults, type SketchLocation } from './toolchains/sketch.js';

export { upload, uploadTarget, type UploadRequest, type UploadResult } from './upload/upload.js';
export { grantUpload, describeUpload, checkConsent, type UploadConsent, type UploadTarget } from './upload/consent.js';

export { boardCommands } from './operation-faces.js';
export type { BoardCommandDeps } from './commands/deps.js';
