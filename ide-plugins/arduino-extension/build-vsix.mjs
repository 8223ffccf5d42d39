// Builds the self-contained .vsix: the extension and the whole bridge bundled by esbuild,
// with the few packages a bundle cannot hold beside it (serialport's native bindings, the
// CommonJS fast-xml-parser the XML reader loads with createRequire, Monaco's files the
// panel serves). The bridge keeps the layout packageRoot() expects:
//   bridge/package.json                    the bridge's own package root
//   bridge/dist/cli/boardbridge.cjs         the CLI bundle, its chunks/ and context.cjs (scripts/bundle-cli.mjs; also the MCP relay)
//   bridge/dist/boards/data/*.json         data files read relative to the code
//   bridge/ide-plugins/panel/              the panel's page
//   bridge/bridge/agents/registry/registry-index.json   the ACP Registry's agents
//   bridge/node_modules/…                  the external packages and what they depend on
// Usage: node ide-plugins/arduino-extension/build-vsix.mjs [--out file.vsix]
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleCli, EXTERNAL, TARGET } from '../../scripts/bundle-cli.mjs';

const extensionDir = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(extensionDir, '..', '..');
const outArg = process.argv.indexOf('--out');
const out = path.resolve(outArg > 0 ? process.argv[outArg + 1] : path.join(repo, 'dist', 'boardbridge-arduino.vsix'));
// The files that go into the .vsix are gathered beside it.
const stage = path.join(path.dirname(out), 'vsix-stage');

/** Which files of the packages the bridge bundle leaves external (EXTERNAL) it needs. */
const KEEP_ONLY = {
  'monaco-editor': ['package.json', 'LICENSE', 'min/vs'],
  uplot: ['package.json', 'LICENSE', 'dist'],
  // The circuit view's elements: one browser bundle that holds lit too, so none of its dependencies come along.
  'markdown-it': ['package.json', 'LICENSE', 'dist'],
  '@wokwi/elements': ['package.json', 'LICENSE', 'dist/wokwi-elements.bundle.min.js'],
};
/** The prebuilt serialport bindings for the systems the Arduino IDE runs on (node-gyp-build picks by folder name). */
const PREBUILDS = ['linux-x64', 'linux-arm64', 'darwin-x64+arm64', 'win32-x64'];

rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });

const manifest = JSON.parse(readFileSync(path.join(extensionDir, 'package.json'), 'utf8'));
const rootManifest = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8'));
writeFileSync(path.join(stage, 'package.json'), JSON.stringify({ ...manifest, main: './dist/extension.cjs' }, null, 2));
for (const file of ['README.md', 'LICENSE', 'media']) cpSync(path.join(extensionDir, file), path.join(stage, file), { recursive: true });

await build({
  entryPoints: [path.join(extensionDir, 'src', 'extension.js')],
  outfile: path.join(stage, 'dist', 'extension.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: TARGET,
  external: ['vscode'],
  logLevel: 'warning',
});

const bridge = path.join(stage, 'bridge');
// The same bundle as the npm package's bin; the oldest runtime it starts on is BUNDLED_MIN_NODE in src/bridge-process.js.
await bundleCli(path.join(bridge, 'dist', 'cli'), { dependencies: 'bundled' });
writeFileSync(path.join(bridge, 'package.json'), JSON.stringify({ name: 'boardbridge-bundled', version: rootManifest.version, private: true, type: 'module', license: rootManifest.license }, null, 2));
cpSync(path.join(repo, 'boards', 'data'), path.join(bridge, 'dist', 'boards', 'data'), { recursive: true });
cpSync(path.join(repo, 'ide-plugins', 'panel'), path.join(bridge, 'ide-plugins', 'panel'), { recursive: true });
// The ACP Registry's agents as shipped (bridge/agents/registry/registry.ts reads it from the package root).
cpSync(path.join(repo, 'bridge', 'agents', 'registry', 'registry-index.json'), path.join(bridge, 'bridge', 'agents', 'registry', 'registry-index.json'));
for (const dir of packageClosure(EXTERNAL)) copyPackage(dir);
// Served to the panel's page, never imported by the bridge (so not in EXTERNAL).
copyPackage(locate('@wokwi/elements', repo));

execFileSync(path.join(repo, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--out', out], { cwd: stage, stdio: ['ignore', 'inherit', 'inherit'] });
console.log(`${out}: ${(statSync(out).size / 1e6).toFixed(1)} MB`);

/** The folders of `names` and of everything they depend on, found the way Node looks up node_modules. */
function packageClosure(names) {
  const found = new Set();
  const visit = (name, from) => {
    const dir = locate(name, from);
    if (found.has(dir)) return;
    found.add(dir);
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    for (const dependency of Object.keys(pkg.dependencies ?? {})) visit(dependency, dir);
  };
  for (const name of names) visit(name, repo);
  return [...found];
}

function locate(name, from) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === repo || dir === path.dirname(dir)) throw new Error(`build-vsix: ${name} (needed from ${from}) is not installed; run npm ci`);
  }
}

function copyPackage(dir) {
  const relative = path.relative(path.join(repo, 'node_modules'), dir);
  const name = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).name;
  const target = path.join(bridge, 'node_modules', relative);
  const only = KEEP_ONLY[name];
  if (only) {
    for (const part of only) if (existsSync(path.join(dir, part))) cpSync(path.join(dir, part), path.join(target, part), { recursive: true });
    return;
  }
  cpSync(dir, target, {
    recursive: true,
    filter: (source) => {
      const inside = path.relative(dir, source).split(path.sep);
      if (inside[0] === 'node_modules') return false; // nested packages come as their own closure entries
      if (name === '@serialport/bindings-cpp' && inside[0] !== 'dist' && inside[0] !== 'prebuilds' && inside.length > 1) return false;
      if (name === '@serialport/bindings-cpp' && inside[0] === 'prebuilds' && inside[1] && !PREBUILDS.includes(inside[1])) return false;
      return !/\.(d\.ts|d\.mts|d\.cts|map|md)$/.test(source) || /LICENSE/i.test(source);
    },
  });
}
