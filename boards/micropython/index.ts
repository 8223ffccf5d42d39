// MicroPython / OpenMV board access: public API (this file only re-exports).
//
//   micropythonCommands(deps?: { openLink?, answerTimeoutMs?, running? }): CommandTable
//     run-script <file> --port P [--timeout S] [--no-raw-paste]   exit 0 / 1 traceback / 124 / 130
//     stop-script --port P
//     camera-info --port P [--usbdbg [--slow]] [--json]
//
//   runScript(request, deps, running): Promise<RunScriptResult>   (MCP run_script)
//   stopScript(port, deps, running): Promise<StopResult>          (MCP stop_script)
//   cameraInfoOverRepl / cameraInfoOverUsbdbg(port, deps): Promise<CameraInfo>  (MCP camera_info)
//
//   ByteLink, openSerialLink(path), openHubLink(hub, path, owner): the byte stream under them.
//   RawRepl, UsbdbgClient, mapTraceback: the protocol pieces.
//   openmvUsbBoards(): BoardIdentification[] for SerialHub.setBoards (cameras by USB VID:PID).
export { micropythonCommands, EXIT } from './commands.js';
export type { MicropythonDeps } from './commands.js';
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
