// Arduino context provider: public API (this file only re-exports).
//
//   discoverPlatforms(options?: {
//     dataDirs?: string[]; sketchbookDirs?: string[]; includeDebian?: boolean;
//     hardwareDirs?: string[]; home?: string; os?: OsSuffix;
//   }): Promise<InstalledPlatforms>
//     Finds platforms in the arduino-cli data dir (from arduino-cli.yaml, incl. Arduino IDE 2.x's
//     ~/.arduinoIDE/arduino-cli.yaml; default ~/.arduino15), the sketchbook's hardware/ (default
//     ~/Arduino) and /usr/share/arduino/hardware. Pre-1.5 layouts land in `legacy` with a reason.
//
//   resolveFqbn(fqbn: string, platforms: InstalledPlatforms): ResolvedBoard
//     arduino-cli's ResolveFQBN. Throws ResolveError (kind, choices; message names the nearest
//     match). ResolvedBoard: fqbn (normalised), requestedFqbn, vendor, architecture, boardId,
//     name, options (every menu with the option in effect), properties: Map<string,string>
//     (unexpanded build properties), sources: Map<string, SourceRef>, platformPath,
//     corePlatformPath, corePath, variantPath?, expand(text, extra?), expanded(key), warnings.
//
//   Properties / parseProperties / loadPropertiesFile / expandReferences: the properties format.
//   parseFqbn / formatFqbn: FQBN syntax.
export { discoverPlatforms, DEBIAN_HARDWARE_DIR, cliConfigFiles } from './platforms.js';
export type { DiscoverOptions, InstalledPlatforms, LegacyPlatform, ToolRelease } from './platforms.js';
export { PlatformRelease } from './platform-release.js';
export type { BoardDefinition, PlatformData } from './platform-release.js';
export { resolveFqbn, ResolveError, CLI_IDE_VERSION } from './resolve.js';
export type { ResolvedBoard, SelectedOption } from './resolve.js';
export { parseFqbn, formatFqbn, describeChoices, nearestMatch } from './fqbn.js';
export type { Fqbn, FqbnResult } from './fqbn.js';
export {
  Properties,
  parseProperties,
  loadPropertiesFile,
  loadWithLocal,
  expandReferences,
  unresolvedReferences,
  currentOsSuffix,
  EXPANSION_ROUNDS,
} from './properties.js';
export type { OsSuffix, ParsedProperties } from './properties.js';
export { compareVersions } from './version.js';
export { arduinoProvider, createArduinoProvider, chooseBoard, ArduinoBoardError } from './provider.js';
export type { ArduinoProviderOptions } from './provider.js';
export { buildBoardContext, libraryFolders } from './board-context.js';
export type { BoardContextInput } from './board-context.js';
export { renderArduinoContext } from './render.js';
export { ContextCache } from './cache.js';
export { buildPinMap } from './pin-map.js';
export type { PinMap } from './pin-map.js';
export { readVariantHeader, compileDefines, avrDeviceMacro, splitCommandLine } from './variant-header.js';
export type { VariantHeader } from './variant-header.js';
export { scanLibraries, readLibrary, isCompatible } from './libraries.js';
export type { Library, LibraryFolder, LibraryLocation, LibraryScan } from './libraries.js';
export { parseDepends, parseConstraint, satisfies } from './library-depends.js';
export { resolveIncludes, includeDirectives } from './includes.js';
export { checkSketch, checkBuildSize } from './sketch-check.js';
export type { BuildSize } from './sketch-check.js';
export { readSketch, sketchMainFile } from './sketch.js';
export type { SketchProject, SketchProfile } from './sketch.js';
