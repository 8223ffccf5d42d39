export { createMplabxProvider, mplabxProvider } from './provider.js';
export { loadMplabContext, readProject, chooseConfiguration, type MplabxContextOptions } from './context.js';
export { detectMplabProject, isMplabXFolder } from './detect.js';
export { renderMplabContext } from './render.js';
export { parseAtdf } from './atdf.js';
export { parseEdc } from './edc.js';
export { PACK_PATH_VARIABLE, defaultPackRoots, findDeviceFacts } from './packs.js';
export type { DeviceFacts } from './device-facts.js';
export type { MplabProject, MplabConfiguration } from './project-model.js';
