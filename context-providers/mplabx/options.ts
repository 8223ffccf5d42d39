// Turns the compiler option blocks of XC8, XC16/XC-DSC, XC32 and the GCC
// toolchains (AVR-GCC, Arm GCC) into one normalised list (optimisation, defines, include directories, memory
// model ...). Only options that change what code may do or how it is built
// are kept; IDE bookkeeping (listing files, tool firmware) is not.
import type { Finding, SourceRef } from '../types.js';
import { warning, type MplabConfiguration, type OptionProperty } from './project-model.js';

export interface NormalisedOption {
  /** Normalised name: `optimization`, `define`, `include-dir`, `memory-model.data`, ... */
  name: string;
  value: string;
  /** The block and key it came from, e.g. `HI-TECH-COMP/optimization-level`. */
  origin: string;
  source: SourceRef;
}

type Shape = 'single' | 'list';
interface Rule {
  name: string;
  shape: Shape;
  /** Values that mean "nothing chosen" and are left out. */
  ignore?: string[];
  map?: (value: string) => string;
}

const optimizationLevel = (value: string): string => (/^\d$/.test(value) || value === 's' ? `-O${value}` : value);

const xc8: Record<string, Record<string, Rule>> = {
  'HI-TECH-COMP': {
    'optimization-level': { name: 'optimization', shape: 'single' },
    'define-macros': { name: 'define', shape: 'list' },
    'undefine-macros': { name: 'undefine', shape: 'list' },
    'extra-include-directories': { name: 'include-dir', shape: 'list' },
    'warning-level': { name: 'warning-level', shape: 'single' },
    'short-enums': { name: 'short-enums', shape: 'single' },
  },
  'HI-TECH-LINK': {
    'data-model-size-of-double': { name: 'double-size', shape: 'single' },
    'data-model-size-of-float': { name: 'float-size', shape: 'single' },
    'extra-lib-directories': { name: 'library-dir', shape: 'list' },
    'input-libraries': { name: 'library', shape: 'list' },
    'additional-options-code-offset': { name: 'code-offset', shape: 'single' },
  },
  'XC8-config-global': {
    'gcc-opt-std': { name: 'c-standard', shape: 'single' },
    'stack-type': { name: 'stack-model', shape: 'single' },
    'user-pack-device-support': { name: 'device-support-pack', shape: 'single' },
  },
};

const xc16Compiler: Record<string, Rule> = {
  'optimization-level': { name: 'optimization', shape: 'single', map: optimizationLevel },
  'preprocessor-macros': { name: 'define', shape: 'list' },
  'extra-include-directories': { name: 'include-dir', shape: 'list' },
  'code-model': { name: 'memory-model.code', shape: 'single', ignore: ['default'] },
  'data-model': { name: 'memory-model.data', shape: 'single', ignore: ['default'] },
  'const-model': { name: 'memory-model.const', shape: 'single', ignore: ['default'] },
  'scalar-model': { name: 'memory-model.scalar', shape: 'single', ignore: ['default'] },
  'enable-large-arrays': { name: 'large-arrays', shape: 'single', ignore: ['false'] },
  'enable-short-double': { name: 'short-double', shape: 'single', ignore: ['false'] },
};

const xc16: Record<string, Record<string, Rule>> = {
  C30: xc16Compiler,
  'C30-LD': {
    'heap-size': { name: 'heap-size', shape: 'single' },
    'stack-size': { name: 'min-stack-size', shape: 'single' },
    'preprocessor-macros': { name: 'linker-define', shape: 'list' },
    'extra-lib-directories': { name: 'library-dir', shape: 'list' },
    'input-libraries': { name: 'library', shape: 'list' },
  },
  C30Global: {
    'common-include-directories': { name: 'include-dir', shape: 'list' },
    'oXC16glb-macros': { name: 'define', shape: 'list' },
    'legacy-libc': { name: 'legacy-libc', shape: 'single' },
    'fast-math': { name: 'fast-math', shape: 'single', ignore: ['false'] },
  },
};

const xc32Compiler: Record<string, Rule> = {
  'optimization-level': { name: 'optimization', shape: 'single', map: optimizationLevel },
  'preprocessor-macros': { name: 'define', shape: 'list' },
  'extra-include-directories': { name: 'include-dir', shape: 'list' },
  'isolate-each-function': { name: 'function-sections', shape: 'single', ignore: ['false'] },
  'place-data-into-section': { name: 'data-sections', shape: 'single', ignore: ['false'] },
};

const xc32: Record<string, Record<string, Rule>> = {
  C32: xc32Compiler,
  C32CPP: xc32Compiler,
  'C32-LD': {
    'heap-size': { name: 'heap-size', shape: 'single' },
    'min-stack-size': { name: 'min-stack-size', shape: 'single' },
    'preprocessor-macros': { name: 'linker-define', shape: 'list' },
    'extra-lib-directories': { name: 'library-dir', shape: 'list' },
    'input-libraries': { name: 'library', shape: 'list' },
  },
  C32Global: {
    'common-include-directories': { name: 'include-dir', shape: 'list' },
    'legacy-libc': { name: 'legacy-libc', shape: 'single' },
    'relaxed-math': { name: 'relaxed-math', shape: 'single', ignore: ['false'] },
  },
};

// AVR-GCC and Arm GCC are plain GCC drivers; MPLAB names their options as it does XC32's (itself GCC-based).
const gcc: Record<string, Record<string, Rule>> = {
  GCC: xc32Compiler,
  'GCC-LD': xc32['C32-LD'],
};

// XC-DSC is XC16's successor for dsPIC and takes XC16's options.
const rulesByToolchain: Record<string, Record<string, Record<string, Rule>>> = { XC8: xc8, XC16: xc16, 'XC-DSC': xc16, XC32: xc32, 'AVR-GCC': gcc, 'ARM GCC': gcc };

export const knownToolchains = ['XC8', 'XC16', 'XC-DSC', 'XC32', 'AVR-GCC', 'Arm GCC'];

/**
 * The option block a VS Code property belongs in: `C30.heap-size` or `C30/heap-size` names its block;
 * a bare key goes to the first block of the toolchain with a rule for it, else to `properties`.
 */
export function blockForProperty(toolchain: string | undefined, key: string): { block: string; key: string } {
  const rules = toolchain ? rulesByToolchain[toolchain.toUpperCase()] : undefined;
  if (!rules) return { block: 'properties', key };
  const split = /^([^./]+)[./](.+)$/.exec(key);
  if (split && rules[split[1]]) return { block: split[1], key: split[2] };
  const block = Object.keys(rules).find((name) => rules[name][key]);
  return { block: block ?? 'properties', key };
}

export function normaliseOptions(conf: MplabConfiguration): { options: NormalisedOption[]; warnings: Finding[] } {
  const toolchain = conf.toolchain?.toUpperCase();
  const rules = toolchain ? rulesByToolchain[toolchain] : undefined;
  if (!rules) {
    const where = conf.sources.toolchain ?? conf.sources.configuration;
    // The .mplab.json reader has already said why an MPLAB for VS Code configuration has no compiler.
    if (!conf.toolchain && where?.file.endsWith('.mplab.json')) return { options: [], warnings: [] };
    const what = conf.toolchain ? `toolchain "${conf.toolchain}" is not one boardbridge knows (${knownToolchains.join(', ')})` : 'no <languageToolchain> is set';
    return {
      options: [],
      warnings: [warning('mplabx-unknown-toolchain', `${where?.file}:${where?.line}: configuration "${conf.name}": ${what}; compiler options are not listed`, where?.file, where?.line)],
    };
  }
  const options: NormalisedOption[] = [];
  for (const [block, blockRules] of Object.entries(rules)) {
    for (const property of conf.optionBlocks[block] ?? []) {
      const rule = blockRules[property.key];
      if (rule) options.push(...apply(rule, block, property));
    }
  }
  return { options: dedupe(options), warnings: [] };
}

function apply(rule: Rule, block: string, property: OptionProperty): NormalisedOption[] {
  const raw = property.value.trim();
  if (raw === '' || rule.ignore?.includes(raw)) return [];
  const origin = `${block}/${property.key}`;
  // MPLAB X stores lists separated by semicolons.
  const values = rule.shape === 'list' ? raw.split(';').map((v) => v.trim()).filter(Boolean) : [raw];
  return values.map((value) => ({ name: rule.name, value: rule.map ? rule.map(value) : value, origin, source: property.source }));
}

// The same include directory may be given both per compiler and globally.
function dedupe(options: NormalisedOption[]): NormalisedOption[] {
  const seen = new Set<string>();
  return options.filter((o) => {
    const key = `${o.name}\u0000${o.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
