// The `provider` of an MPLAB for VS Code toolchain property group:
// `<extension>:<compiler>@<version>`, e.g. `microchip.toolchains:xc16@2.10`,
// `microchip.toolchains:avr-gcc@7.3.0`. The compiler ids are the ones the
// microchip.toolchains extension registers (xc8, xc16, xc-dsc, xc32, arm-gcc,
// avr-gcc, pic-as, avr-asm2, xc-llvm); they are shown by the names the
// compilers are sold under.
export interface ToolchainProvider {
  /** `microchip.toolchains`; absent when the provider is only `xc16@2.10`. */
  extension?: string;
  /** The compiler id as written, lower case: `xc16`, `avr-gcc`. */
  id: string;
  /** `XC16`, `AVR-GCC`, `Arm GCC`; the id itself when it is not one of the known ones. */
  name: string;
  version?: string;
}

const names: Record<string, string> = {
  xc8: 'XC8',
  xc16: 'XC16',
  'xc-dsc': 'XC-DSC',
  xc32: 'XC32',
  'avr-gcc': 'AVR-GCC',
  'arm-gcc': 'Arm GCC',
  'pic-as': 'PIC-AS',
  'avr-asm2': 'AVRASM2',
  'xc-llvm': 'XC-LLVM',
};

export function parseToolchainProvider(value: string): ToolchainProvider | undefined {
  const match = /^\s*(?:([A-Za-z0-9_.-]+):)?([A-Za-z0-9_.+-]+?)(?:@([^\s@]+))?\s*$/.exec(value);
  if (!match) return undefined;
  const [, extension, rawId, version] = match;
  const id = rawId.toLowerCase();
  return { ...(extension ? { extension } : {}), id, name: names[id] ?? rawId, ...(version ? { version } : {}) };
}

/** The compiler id for a toolchain name as shown (`XC16` → `xc16`, `Arm GCC` → `arm-gcc`). */
export function toolchainId(name: string): string {
  const known = Object.entries(names).find(([, shown]) => shown.toLowerCase() === name.toLowerCase());
  return known ? known[0] : name.toLowerCase();
}
