// MicroPython / OpenMV board access: public API (this file only re-exports).
//
//   run-script, stop-script, camera-info: operations in BOARD_OPERATIONS (commands.ts has their
//   runs; exit 0 / 1 traceback / 124 timed out / 130 stopped), with every face generated from there.
//
//   runScript(request, deps, running): Promise<RunScriptResult>
//   stopScript(port, deps, running): Promise<StopResult>
//   cameraInfoOverRepl / cameraInfoOverUsbdbg(port, deps): Promise<CameraInfo>
//
//   ByteLink, openSerialLink(path), openHubLink(hub, path, owner): the byte stream under them.
//   RawRepl, UsbdbgClient, mapTraceback: the protocol pieces.
//   openmvUsbBoards(): BoardIdentification[] for SerialHub.setBoards (cameras by USB VID:PID).
export { EXIT } from './commands.js';
export { runScript, stopScript, RunningScripts } from './run-script.js';
export type { RunScriptRequest, RunScriptResult, RunnerDeps, StopResult } from './run-script.js';
export { cameraInfoOverRepl, cameraInfoOverUsbdbg, describeCameraInfo } from './camera-info.js';
export type { CameraInfo } from './camera-info.js';
export { openSerialLink, LinkError } from './link.js';
export type { ByteLink } from './link.js';
export { openHubLink } from './hub-link.js';
export { RawRepl, ReplError } from './raw-repl.js';
export type { ExecOptions, ExecResult, RawReplOptions } from './raw-repl.js';
export { UsbdbgClient, UsbdbgError, usbdbgFrame, parseArch, UsbdbgCommand, USBDBG_BAUD_FAST, USBDBG_BAUD_SLOW } from './usbdbg.js';
export type { ArchInfo, CameraState } from './usbdbg.js';
export { mapTraceback } from './traceback.js';
export type { MappedTraceback, TracebackFrame, ScriptFile } from './traceback.js';
export { openmvUsbBoards } from './usb-boards.js';
