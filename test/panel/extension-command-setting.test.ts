// The extension's boardbridge.command setting: a list, or one line split the way a shell
// would (quotes respected, nothing expanded); anything else is an error naming the setting.
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../e2e/run-cli.js';

const { commandSetting } = createRequire(import.meta.url)(path.join(repoRoot, 'ide-plugins', 'arduino-extension', 'src', 'command-setting.js')) as {
  commandSetting: (value: unknown) => string[] | undefined;
};

describe('the boardbridge.command setting', () => {
  it('takes a list as the program and its first arguments', () => {
    expect(commandSetting(['node', '/opt/boardbridge/dist/bridge/cli/main.js'])).toEqual(['node', '/opt/boardbridge/dist/bridge/cli/main.js']);
    expect(commandSetting(['npx', 'boardbridge'])).toEqual(['npx', 'boardbridge']);
  });

  it('splits one line as people type it, with quotes and backslashes as a shell reads them', () => {
    expect(commandSetting('node /path/main.js')).toEqual(['node', '/path/main.js']);
    expect(commandSetting('  npx   boardbridge ')).toEqual(['npx', 'boardbridge']);
    expect(commandSetting('"C:\\Program Files\\nodejs\\node.exe" "/home/anna/my tools/main.js"')).toEqual(['C:\\Program Files\\nodejs\\node.exe', '/home/anna/my tools/main.js']);
    expect(commandSetting("node '/home/anna/my tools/main.js' --x")).toEqual(['node', '/home/anna/my tools/main.js', '--x']);
    expect(commandSetting('node /home/anna/my\\ tools/main.js')).toEqual(['node', '/home/anna/my tools/main.js']);
    expect(commandSetting('node "/a/"b\'c d\'')).toEqual(['node', '/a/bc d']);
    expect(commandSetting('echo "say \\"hi\\" $HOME"')).toEqual(['echo', 'say "hi" $HOME']);
  });

  it('means the default when empty', () => {
    expect(commandSetting(undefined)).toBeUndefined();
    expect(commandSetting('')).toBeUndefined();
    expect(commandSetting('   ')).toBeUndefined();
    expect(commandSetting([])).toBeUndefined();
  });

  it('refuses anything else with an error that names the setting and shows both forms', () => {
    const form = 'The setting boardbridge.command must be the command that runs boardbridge, as a list such as ["npx", "boardbridge"] or one line such as "npx boardbridge" (quote a path with spaces)';
    expect(() => commandSetting(42)).toThrow(`${form}: it is 42.`);
    expect(() => commandSetting({ program: 'node' })).toThrow(`${form}: it is {"program":"node"}.`);
    expect(() => commandSetting(['node', 7])).toThrow(`${form}: item 2 of the list is 7, not a word of the command.`);
    expect(() => commandSetting(['node', ''])).toThrow('item 2 of the list is "", not a word of the command');
    expect(() => commandSetting('node "/path/main.js')).toThrow(`${form}: "node \\"/path/main.js" has a quote that is never closed (or ends in a lone backslash).`);
  });
});
