// The command line as one file and a chunk per command: esbuild bundles bridge/cli/main.ts and
// the modules it imports, so a command loads a few files instead of resolving some sixty modules.
// The npm package's `boardbridge` bin is this bundle with the package's dependencies left to
// node_modules; the .vsix's bridge bundles them too, all but the packages a bundle cannot hold
// (native bindings, packages that read their own files beside them).
// `context` is also context.cjs, one CommonJS script that main.ts runs with V8's code cache
// (bridge/cli/code-cache.ts) for a plain `boardbridge context` command line.
//   node scripts/bundle-cli.mjs [outdir]     (default dist/cli: boardbridge.cjs, shell.cjs, chunks/, context.cjs and its context-*.cjs)
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Packages left outside the bundle: serialport (native bindings), fast-xml-parser (CommonJS,
 * loaded with createRequire), Monaco, uPlot and markdown-it (files the panel serves), the ACP SDK (its zod
 * schemas are read from the files beside its entry point, bridge/session/sdk-validation.ts),
 * zod, its peer, and jsonc-parser (its UMD build requires its own files by computed paths, which
 * a bundle cannot follow).
 */
export const EXTERNAL = ['serialport', 'fast-xml-parser', 'monaco-editor', 'uplot', 'markdown-it', '@agentclientprotocol/sdk', 'zod', 'jsonc-parser'];

/**
 * Dependencies every command loads at start-up, bundled into the npm package's CLI too: a
 * CommonJS package imported from an ES module is resolved, read and scanned for its exports
 * (cjs-module-lexer) on each start, which costs commander's four files some 30 ms of CPU.
 */
export const START_UP = ['commander'];

/**
 * Dependencies the context command's script (context.cjs) holds, in the npm package too: yaml
 * reads a sketch's sketch.yaml (its profiles) and the CLI's configuration, and required from
 * node_modules it is some seventy CommonJS files to resolve, read and compile on each start
 * (25-35 ms of a first context); in the script it is compiled once into V8's code cache with the rest.
 */
export const IN_CONTEXT_SCRIPT = ['yaml'];

/**
 * What the context command's script leaves to scripts of their own beside it, each required the
 * first time it is imported and run with a code cache of its own (bridge/cli/code-cache.ts): the
 * yaml reader (a sketch.yaml or arduino-cli.yaml; the yaml package is a quarter of the whole), and
 * the MPLAB X and OpenMV providers, which an Arduino sketch never loads. In context.cjs they would
 * still be read, and their functions made, on every start. Each is a module of its own (these
 * import only stateless ones: data-files, regular-file, edit-distance), so the copies a split
 * script holds share no state that could drift.
 */
export const CONTEXT_SPLITS = {
  'context-yaml': 'platform/arduino/yaml.ts',
  'context-mplabx': 'context-providers/mplabx/index.ts',
  'context-openmv': 'context-providers/openmv/index.ts',
};

/**
 * The modules context.cjs and its split scripts may both hold, each its own copy: modules without
 * state two copies could disagree on (no cache of changing files, no registry, nothing set at run
 * time; data-files.ts only remembers where the package's own read-only data files are, and what
 * they hold). A module the splits come to share that is not named here fails the build: import it
 * from one side only, or name it here once it is known to have no such state.
 */
export const SHARED_WITH_SPLITS = ['platform/data-files.ts', 'platform/regular-file.ts', 'platform/edit-distance.ts', 'platform/path-join.ts'];

/**
 * The repository's own modules (paths from the repository's root) that both builds bundled; a
 * metafile names its inputs from the folder esbuild ran in (`workingDir`).
 */
export function sharedModules(contextMeta, splitsMeta, workingDir = process.cwd()) {
  const own = (metafile) =>
    new Set(
      Object.keys(metafile.inputs)
        .filter((file) => !file.includes(':'))
        .map((file) => path.relative(repo, path.resolve(workingDir, file)).split(path.sep).join('/'))
        .filter((file) => !file.startsWith('node_modules/') && !file.startsWith('../')),
    );
  const splitInputs = own(splitsMeta);
  return [...own(contextMeta)].filter((file) => splitInputs.has(file)).sort();
}

const manifest = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8'));

/** The syntax esbuild may emit: the Arduino IDE's runtime (>= 18.19) must start the bundle. */
export const TARGET = 'node18';

/** esbuild's options for a CommonJS script in `outdir` (name.cjs, in a "type": "module" package). */
function commonJsScript(outdir) {
  return {
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: TARGET,
    // import.meta.url (data-files.ts finds boards/data from it) is the script's own file.
    define: { 'import.meta.url': '__bundleUrl' },
    banner: { js: "'use strict';\nconst __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
  };
}

/** An executable script, as npm's bin links need it, whatever mode an earlier build left there. */
function writeBin(file, body) {
  writeFileSync(file, `#!/usr/bin/env node\n${body}`);
  chmodSync(file, 0o755);
}

/**
 * Bundles the CLI into `outdir`: `boardbridge.cjs` and the chunks its commands load when they run.
 * Splitting keeps `import()` lazy: a command loads only its own chunk, and the packages left
 * external are imported by the chunks that use them, not at start-up.
 */
export async function bundleCli(outdir, { dependencies = 'external', splits: splitSources = CONTEXT_SPLITS } = {}) {
  // The last build's chunks go: the stored contexts' code fingerprint is the chunks' names.
  rmSync(path.join(outdir, 'chunks'), { recursive: true, force: true });
  // `context` on a plain command line (main.ts) runs this CommonJS file with V8's code cache
  // (bridge/cli/code-cache.ts): the whole command in one script, its lazy imports inlined. A script
  // run that way cannot import() a package or a built-in module (no importModuleDynamically), so a
  // dynamic import of one fails the build.
  const splitOf = new Map(Object.entries(splitSources).map(([name, source]) => [path.join(repo, source), `./${name}.cjs`]));
  const contextScript = (entryPoints, splits) => ({
    plugins: [
      {
        name: 'no-dynamic-import-of-packages',
        setup(plugin) {
          plugin.onResolve({ filter: /.*/ }, (args) => {
            if (args.kind !== 'dynamic-import') return undefined;
            if (!args.path.startsWith('.')) {
              return { errors: [{ text: `${args.importer} imports ${args.path} dynamically: context.cjs runs as a script (vm.Script), which cannot import() a package or a built-in module (import it statically in a module imported dynamically)` }] };
            }
            // A split module is required from its own script, found beside context.cjs (the require it
            // is run with): a stand-in module that requires it, since an import() left in the script
            // would need the ES module loader a vm.Script does not have.
            const split = splits && splitOf.get(path.resolve(path.dirname(args.importer), args.path).replace(/\.js$/, '.ts'));
            return split ? { path: split, namespace: 'context-split' } : undefined;
          });
          plugin.onLoad({ filter: /.*/, namespace: 'context-split' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
          plugin.onResolve({ filter: /^\.\/context-[a-z]+\.cjs$/ }, (args) => (args.namespace === 'context-split' ? { path: args.path, external: true } : undefined));
        },
      },
    ],
    external: dependencies === 'external' ? Object.keys(manifest.dependencies).filter((name) => !IN_CONTEXT_SCRIPT.includes(name)) : EXTERNAL,
    entryPoints,
    ...commonJsScript(outdir),
    // It repeats what the chunks hold, so it goes in the package minified: no spaces or comments,
    // short local names. Its code cache, read at every start, is that much smaller (an Uno's, 490
    // to 426 kB); boardbridge prints no stack traces, and the chunks and the unbundled modules keep
    // the names for whoever debugs.
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: true,
  });
  const context = await build({ ...contextScript({ context: path.join(repo, 'bridge', 'cli', 'context.ts') }, true), metafile: true });
  const splitScripts = await build({ ...contextScript(Object.fromEntries(Object.entries(splitSources).map(([name, source]) => [name, path.join(repo, source)])), false), metafile: true });
  const shared = sharedModules(context.metafile, splitScripts.metafile).filter((file) => !SHARED_WITH_SPLITS.includes(file));
  if (shared.length > 0) {
    throw new Error(`context.cjs and its split scripts would each hold a copy of ${shared.join(', ')}: a module with state must be in one of them only (import it from one side), or, if it has none, be named in SHARED_WITH_SPLITS (scripts/bundle-cli.mjs)`);
  }
  // The shell (main.ts) is a CommonJS script, shell.cjs in a "type": "module" package, so a
  // plain `context` command line needs no ES module loader: it holds the stored-context path and
  // the code cache, and runs context.cjs; every other command imports the commands' ES module
  // (program.ts, chunks/program.js).
  const main = path.join(repo, 'bridge', 'cli', 'main.ts');
  const beside = { './program.js': './chunks/program.js', './context.js': './context.cjs' };
  await build({
    plugins: [
      {
        name: 'shell-imports-beside',
        setup(plugin) {
          plugin.onResolve({ filter: /^\.\/(program|context)\.js$/ }, (args) =>
            args.importer === main ? { path: beside[args.path], external: true } : undefined,
          );
        },
      },
    ],
    // It holds no package today; one it came to import would be found as the chunks find theirs.
    external: dependencies === 'external' ? Object.keys(manifest.dependencies) : EXTERNAL,
    entryPoints: { shell: main },
    ...commonJsScript(outdir),
  });
  // The bin only turns Node's compile cache on (Node >= 22.1) before it requires the shell, so
  // the shell's compiled code is kept too, not only what the shell loads after it turned it on.
  writeBin(path.join(outdir, 'boardbridge.cjs'), "// boardbridge's command line (scripts/bundle-cli.mjs): Node's compile cache first, then the shell.\nrequire('node:module').enableCompileCache?.();\nrequire('./shell.cjs');\n");
  // The bin's name before it was a CommonJS file. npx keeps the bin link it made in its cache for
  // as long as the clone's path is the same, and a global link stays too: both still point here.
  writeBin(path.join(outdir, 'boardbridge.js'), "// The bin's earlier name (scripts/bundle-cli.mjs): links made to it run the bin.\nimport { createRequire } from 'node:module';\ncreateRequire(import.meta.url)('./boardbridge.cjs');\n");
  await build({
    // The npm package installs its dependencies beside it: the bundle holds boardbridge's own code
    // and START_UP's only. The .vsix has no node_modules of its own but EXTERNAL's, so it bundles the rest.
    external: dependencies === 'external' ? Object.keys(manifest.dependencies).filter((name) => !START_UP.includes(name)) : EXTERNAL,
    entryPoints: { 'chunks/program': path.join(repo, 'bridge', 'cli', 'program.ts') },
    outdir,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: TARGET,
    // CommonJS dependencies inside an ES module bundle still call require() for Node's modules.
    banner: { js: "import { createRequire as __boardbridgeRequire } from 'node:module';\nconst require = __boardbridgeRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  // What earlier builds wrote there and this one does not: the stored-context file.
  for (const stale of ['stored-context.js']) rmSync(path.join(outdir, stale), { force: true });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await bundleCli(path.resolve(process.argv[2] ?? path.join(repo, 'dist', 'cli')));
}
