// OpenMV context provider: public API (this file only re-exports).
//
//   openmvProvider: ContextProvider
//     detect(root): a .py importing sensor/csi, a folder holding one (main.py first), or a camera
//     drive with openmv.config. load(project, { board, firmware?, files? }): board by id, name,
//     arch string or VID:PID; throws OpenMvBoardError (known, nearest) for an unknown or missing board.
//
//   analyzeScript(text, { board: OpenMvBoard, firmware?, sensor?, file? }): ScriptAnalysis
//     api ('sensor' | 'csi' | 'mixed' | 'none'), generation, budget, frames, findings, syntaxError.
//
//   lookupBoard(query): BoardLookup; boardsByUsb(vid, pid), boardsByArch(arch), knownBoards(),
//   frameBufferBudget(board, generation).
export { openmvProvider, OpenMvBoardError } from './provider.js';
export { analyzeScript } from './analyze-script.js';
export type { ScriptAnalysis, ScriptAnalysisOptions, CheckedFrame } from './analyze-script.js';
export { lookupBoard, boardsByUsb, boardsByArch, knownBoards, frameBufferBudget } from './board-facts.js';
export type { OpenMvBoard, Generation, BoardLookup, BoardMatch, FirmwareFacts, FrameBufferBudget } from './board-facts.js';
export { sensorForId } from './camera-api.js';
export { renderOpenMvContext } from './render.js';
export { parseOpenMvConfig, readOpenMvConfig } from './openmv-config.js';
export type { OpenMvConfig, ConfigEntry } from './openmv-config.js';
