// Arduino context provider: public API (this file only re-exports).
//
// Provider (registered by the lead in context-providers/index.ts):
//   arduinoProvider: ContextProvider                      kind 'arduino'
//   createArduinoProvider(options?: ArduinoProviderOptions): ContextProvider
//     options = DiscoverOptions & { buildSize?(sketchDir: string): BuildSize | undefined }
//     detect(root): a folder holding <folder>.ino/.pde (or that .ino itself) → { kind, root, main }
//     load(project, selection): board = selection.board ?? sketch.yaml default_profile's fqbn
//       ?? default_fqbn; throws ArduinoBoardError (message says how to pick a board / nearest
//       match, `choices`) when none or unknown. Cached until an input's mtime/size changes.
//     render(context): compact markdown, facts cited as file:line (platform folder shown as P).
//
// Platforms and properties (for boards/ toolchains: upload recipes, vid/pid, limits):
//   discoverPlatforms(options?: { dataDirs?: string[]; sketchbookDirs?: string[];
//       includeDebian?: boolean; hardwareDirs?: string[]; builtinLibraryDirs?: string[];
//       home?: string; os?: OsSuffix }): Promise<InstalledPlatforms>
//     InstalledPlatforms: platforms: Map<'vendor:arch', PlatformRelease>, tools, legacy
//     (pre-1.5 folders with `reason`), hardwareDirs, sketchbookDirs, builtinLibraryDirs,
//     globalProperties, directories, inputs, warnings.
//     Defaults: the folders arduinoDirectories() finds; Debian on.
//   arduinoDirectories(options?: { home?, env?, platform? }): Promise<ArduinoDirectories>
//     data, user (sketchbook), builtinLibraries?, configFile?, origin of each, as arduino-cli
//     reads ARDUINO_CONFIG_FILE, arduino-cli.yaml (the IDE's ~/.arduinoIDE/ copy before the
//     default) and ARDUINO_DIRECTORIES_* over it.
//   resolveFqbn(fqbn: string, platforms: InstalledPlatforms): ResolvedBoard   (sync)
//     arduino-cli's ResolveFQBN. Throws ResolveError { kind: 'fqbn'|'platform'|'board'|
//     'option'|'value'|'reference', choices: string[] } whose message names the nearest match.
//     ResolvedBoard: fqbn (normalised), requestedFqbn, vendor, architecture, boardId, name,
//       options: SelectedOption[] (every menu, option in effect, isDefault),
//       properties: Map<string, string> (build properties, unexpanded, as
//         `arduino-cli board details --show-properties=unexpanded`; includes upload_port.N.vid/pid,
//         upload.tool.default, upload.maximum_size, tools.<tool>.upload.pattern, …),
//       sources: Map<string, SourceRef>, platformPath, corePlatformPath, corePath, variantPath?,
//       platform: PlatformRelease, board: BoardDefinition, warnings,
//       expand(text, extra?: Record<string,string>): string  ({} expansion, extra wins, 10 rounds),
//       expanded(key): string | undefined, expandForTool(tool, text, extra?) ({path} = tools.<tool>.path).
//   PlatformRelease.load(): PlatformData { properties, boards: Map<id, BoardDefinition>,
//     menuLabels, programmers: Map<id, Properties>, warnings }.
//   Properties (ordered map with per-key SourceRef), parseProperties, loadPropertiesFile,
//   loadWithLocal, expandReferences, unresolvedReferences; parseFqbn / formatFqbn.
//
//   resolveUploadTool(board, installed, { action?: "upload"|"bootloader"|"program"; protocol? }):
//     { toolId, reference, key, platform, properties } — arduino-cli's upload property assembly incl.
//     vendor:tool; boards/upload/recipe.ts builds the upload command from it.
//
// Board facts: buildPinMap(board): PinMap; readVariantHeader(board); compileDefines(board).
// Sketch: readSketch(dir), scanLibraries(folders), resolveIncludes(files, board, libraries),
//   checkSketch(files, dir, board, pinMap, includes), checkBuildSize({ flashBytes, ramBytes }, board).
// Context: buildBoardContext({ board, installed, sketch?, buildSize? }), renderArduinoContext.
// The zod schema of the JSON (docs/context-schema.md) is in ./context-schema.js, imported from
// there so loading the provider does not load zod.
export { discoverPlatforms, DEBIAN_HARDWARE_DIR } from '../../platform/arduino/platforms.js';
export { arduinoDirectories, arduinoConfigFile, type ArduinoDirectories } from '../../platform/arduino/directories.js';
export type { DiscoverOptions, InstalledPlatforms, LegacyPlatform, ToolRelease } from '../../platform/arduino/platforms.js';
export { PlatformRelease } from '../../platform/arduino/platform-release.js';
export type { BoardDefinition, PlatformData } from '../../platform/arduino/platform-release.js';
export { resolveFqbn, ResolveError, CLI_IDE_VERSION } from '../../platform/arduino/resolve.js';
export type { ResolvedBoard, SelectedOption } from '../../platform/arduino/resolve.js';
export { parseFqbn, formatFqbn, describeChoices, nearestMatch } from '../../platform/arduino/fqbn.js';
export type { Fqbn, FqbnResult } from '../../platform/arduino/fqbn.js';
export {
  Properties,
  parseProperties,
  loadPropertiesFile,
  loadWithLocal,
  expandReferences,
  unresolvedReferences,
  currentOsSuffix,
  EXPANSION_ROUNDS,
} from '../../platform/arduino/properties.js';
export type { OsSuffix, ParsedProperties } from '../../platform/arduino/properties.js';
export { compareVersions } from '../../platform/arduino/version.js';
export { arduinoProvider, createArduinoProvider, chooseBoard, ArduinoBoardError } from './provider.js';
export type { ArduinoProviderOptions } from './provider.js';
export { buildBoardContext, libraryFolders } from './board-context.js';
export type { BoardContextInput } from './board-context.js';
export { renderArduinoContext } from './render.js';
export { StampedCache } from './cache.js';
export { buildPinMap } from './pin-map.js';
export type { PinMap } from './pin-map.js';
export { readVariantHeader, compileDefines, avrDeviceMacro } from './variant-header.js';
export { compileFlags, splitCommandLine } from './compile-flags.js';
export type { VariantHeader } from './variant-header.js';
export { scanLibraries, readLibrary, isCompatible } from './libraries.js';
export type { Library, LibraryFolder, LibraryLocation, LibraryScan } from './libraries.js';
export { parseDepends, parseConstraint, satisfies } from './library-depends.js';
export { resolveIncludes, includeDirectives } from './includes.js';
export { checkSketch, checkBuildSize } from './sketch-check.js';
export type { BuildSize } from './sketch-check.js';
export { readSketch, sketchMainFile } from './sketch.js';
export type { SketchProject, SketchProfile } from './sketch.js';
export { resolveUploadTool } from './upload-tool.js';
export type { ToolRecipeProperties } from './upload-tool.js';
