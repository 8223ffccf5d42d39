// Reading the project MPLAB X and OpenMV IDE have open from their settings files.
// The texts are written here exactly as NetBeans' EditableProperties and Qt 6's
// QSettings write them (research: NetBeans and Qt Creator sources); no IDE runs.
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProperties } from '../../bridge/panel/java-properties.js';
import { parseQSettingsIni } from '../../bridge/panel/qsettings-ini.js';
import { fileUrlToPath, mplabxFollowedProject, readMplabxProjects, readOpenmvState, settingsFileOf } from '../../bridge/panel/ide-projects.js';

const ICON = 'rO0ABXNyABVqYXZheC5zd2luZy5JbWFnZUljb27y';

// As OpenProjectList.saveProjectList and setMainProjectURL leave projectui.properties.
const PROJECTUI = [
  `openProjectsURLs.0=file:/home/anna/MPLABXProjects/Blink.X/`,
  `openProjectsURLs.1=file:/home/anna/My%20Stuff/J\\u00f6rg.X/`,
  `openProjectsDisplayNames.0=Blink`,
  `openProjectsDisplayNames.1=J\\u00f6rg`,
  `openProjectsIcons.0=${ICON}`,
  `openProjectsIcons.1=${ICON}`,
  `mainProjectURL=file:/home/anna/My%20Stuff/J\\u00f6rg.X/`,
  `recentProjectsURLs.0=file:/home/anna/MPLABXProjects/Old.X/`,
  '',
].join('\n');

// As Qt 6 QSettings writes OpenMVIDE.ini: sections, ", "-joined lists, quotes around commas, UTF-8.
const OPENMV_INI = [
  '[General]',
  'OverrideLanguage=@Invalid()',
  '',
  '[OpenMV]',
  'EditorManagerState=@ByteArray(\\0\\0\\0\\x3\\0\\0\\0\\0)',
  'LastSerialPortState=ttyACM0',
  'LastBoardTypeState=OPENMV4',
  'AutoReconnectState=false',
  '',
  '[OpenMVSerialPort]',
  'ttyACM0=/media/anna/4621-0000',
  '',
  '[RecentFiles]',
  'Files="/home/anna/Documents/OpenMV/a, b/blob.py", /home/anna/Documents/OpenMV/helloworld.py',
  'EditorIds=Core.PlainTextEditor, Core.PlainTextEditor',
  '',
  '[ProjectExplorer]',
  'Settings\\ShowCompilerOutput=false',
  'Last%20Dir=/home/anna/Gr\u00fc\u00dfe',
  '',
].join('\n');

describe('java.util.Properties text', () => {
  it('reads =, : and space separators, comments, escapes and continuation lines as java.util.Properties does', () => {
    const parsed = parseProperties(
      ['# comment', '! another', 'a=1', 'b : two', 'c three', 'key\\:with\\=seps=v', 'tab=x\\ty', 'long=first \\', '    second', 'empty=', '  indented = yes', 'back=C:\\\\dir'].join('\r\n'),
    );
    expect(parsed.ok && Object.fromEntries(parsed.values)).toEqual({
      a: '1',
      b: 'two',
      c: 'three',
      'key:with=seps': 'v',
      tab: 'x\ty',
      long: 'first second',
      empty: '',
      indented: 'yes',
      back: 'C:\\dir',
    });
  });

  it('names the line of a malformed \\u escape instead of guessing', () => {
    expect(parseProperties('a=1\nb=J\\u00g6rg\n')).toEqual({ ok: false, error: 'malformed \\uXXXX escape "\\u00g6"', line: 2 });
  });
});

describe('MPLAB X projectui.properties (settings file written as MPLAB X writes it)', () => {
  it('gives the open projects and the main one as folders: %20 and \\u00f6 decoded, trailing slash dropped', () => {
    const read = readMplabxProjects(PROJECTUI, 'linux');
    expect(read).toEqual({ ok: true, value: { main: '/home/anna/My Stuff/Jörg.X', open: ['/home/anna/MPLABXProjects/Blink.X', '/home/anna/My Stuff/Jörg.X'] } });
    expect(read.ok && mplabxFollowedProject(read.value)).toEqual({ project: '/home/anna/My Stuff/Jörg.X' });
  });

  it('reads Windows URLs (file:/C:/…) as Windows paths, CRLF line ends included', () => {
    const text = 'openProjectsURLs.0=file:/C:/Users/anna/MPLABXProjects/Blink.X/\r\nmainProjectURL=file:/C:/Users/anna/MPLABXProjects/Blink.X/\r\n';
    expect(readMplabxProjects(text, 'win32')).toEqual({ ok: true, value: { main: 'C:\\Users\\anna\\MPLABXProjects\\Blink.X', open: ['C:\\Users\\anna\\MPLABXProjects\\Blink.X'] } });
    expect(fileUrlToPath('file:////server/share/P.X/', 'win32')).toBe('\\\\server\\share\\P.X');
    expect(fileUrlToPath('file:///home/u/P.X/', 'linux')).toBe('/home/u/P.X');
  });

  it('follows the only open project when none is main, and says how to pick one when several are open', () => {
    const one = readMplabxProjects('openProjectsURLs.0=file:/p/A.X/\n', 'linux');
    expect(one.ok && mplabxFollowedProject(one.value)).toEqual({ project: '/p/A.X' });
    const two = readMplabxProjects('openProjectsURLs.0=file:/p/A.X/\nopenProjectsURLs.1=file:/p/B.X/\n', 'linux');
    expect(two.ok && mplabxFollowedProject(two.value)).toEqual({
      reason: 'MPLAB X has 2 projects open and none is the main project: set one with Run → Set Main Project (or right-click the project → Set as Main Project)',
    });
    const none = readMplabxProjects('lastOpenProjectDir=/p\n', 'linux');
    expect(none.ok && mplabxFollowedProject(none.value)).toEqual({ reason: 'MPLAB X has no project open' });
  });

  it('stops the open list at the first missing index, as NetBeans reads it', () => {
    const read = readMplabxProjects('openProjectsURLs.0=file:/p/A.X/\nopenProjectsURLs.2=file:/p/C.X/\n', 'linux');
    expect(read).toEqual({ ok: true, value: { open: ['/p/A.X'] } });
  });

  it('refuses bad input with the key at fault: a URL that is not file:, a broken %-escape, a truncated \\u escape', () => {
    expect(readMplabxProjects('mainProjectURL=http://x/A.X/\n', 'linux')).toEqual({ ok: false, error: 'mainProjectURL: "http://x/A.X/" is not a file: URL' });
    expect(readMplabxProjects('openProjectsURLs.0=file:/p/A%2.X/\n', 'linux')).toEqual({ ok: false, error: 'openProjectsURLs.0: "file:/p/A%2.X/" has a malformed %-escape' });
    expect(readMplabxProjects('mainProjectURL=file:/p/J\\u00', 'linux')).toEqual({ ok: false, error: 'line 1: malformed \\uXXXX escape "\\u00"' });
  });
});

describe('QSettings INI text', () => {
  it('reads sections, \\-separated and %-escaped keys, quoted lists, @Invalid() and C escapes as Qt 6 writes them', () => {
    const parsed = parseQSettingsIni(OPENMV_INI);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.values.get('OverrideLanguage')).toEqual([]);
    expect(parsed.values.get('RecentFiles/Files')).toEqual(['/home/anna/Documents/OpenMV/a, b/blob.py', '/home/anna/Documents/OpenMV/helloworld.py']);
    expect(parsed.values.get('ProjectExplorer/Settings/ShowCompilerOutput')).toBe('false');
    expect(parsed.values.get('ProjectExplorer/Last Dir')).toBe('/home/anna/Grüße');
    expect(parsed.values.get('OpenMV/EditorManagerState')).toBe('@ByteArray(\0\0\0\x03\0\0\0\0)');
    const escapes = parseQSettingsIni('[S]\nq="  padded ; not a comment  "\nc=a\\tb\\x41\\101 ; comment\n@=@@at\n');
    expect(escapes.ok && Object.fromEntries(escapes.values)).toEqual({ 'S/q': '  padded ; not a comment  ', 'S/c': 'a\tbAA', 'S/@': '@at' });
  });

  it('names the line of a quoted value that does not end (a file cut off mid-write)', () => {
    expect(parseQSettingsIni('[RecentFiles]\nFiles="/home/anna/blo')).toEqual({ ok: false, error: 'a quoted value does not end: "/home/anna/blo', line: 2 });
    expect(parseQSettingsIni('[RecentFiles\nFiles=x\n')).toMatchObject({ ok: false, line: 1 });
  });
});

describe('OpenMV IDE OpenMVIDE.ini (settings file written as OpenMV IDE writes it)', () => {
  it('gives the latest script, the last serial port as a device path and its drive', () => {
    expect(readOpenmvState(OPENMV_INI, 'linux')).toEqual({
      ok: true,
      value: { script: '/home/anna/Documents/OpenMV/a, b/blob.py', port: '/dev/ttyACM0', drive: '/media/anna/4621-0000' },
    });
  });

  it('takes a one-item list written as a bare string, skips recent files that are not scripts, keeps COM ports and macOS cu.* names', () => {
    const mac = readOpenmvState('[OpenMV]\nLastSerialPortState=cu.usbmodem14101\n\n[RecentFiles]\nFiles=/Users/anna/notes.txt, /Users/anna/Main.PY\n', 'darwin');
    expect(mac).toEqual({ ok: true, value: { script: '/Users/anna/Main.PY', port: '/dev/cu.usbmodem14101' } });
    const win = readOpenmvState('[OpenMV]\nLastSerialPortState=COM5\n\n[OpenMVSerialPort]\nCOM5=E:/\n\n[RecentFiles]\nFiles=C:/Users/anna/Documents/OpenMV/a.py\n', 'win32');
    expect(win).toEqual({ ok: true, value: { script: 'C:\\Users\\anna\\Documents\\OpenMV\\a.py', port: 'COM5', drive: 'E:/' } });
  });

  it('has no port for a WiFi camera (name:ip:port) and nothing at all for an IDE that never saved', () => {
    expect(readOpenmvState('[OpenMV]\nLastSerialPortState=cam:192.168.1.5:9000\n', 'linux')).toEqual({ ok: true, value: {} });
    expect(readOpenmvState('', 'linux')).toEqual({ ok: true, value: {} });
    expect(readOpenmvState('[RecentFiles]\nFiles=@Invalid()\n', 'linux')).toEqual({ ok: true, value: {} });
  });
});

describe('where the IDEs keep these files', () => {
  it('finds OpenMVIDE.ini under XDG_CONFIG_HOME, ~/.config, or %APPDATA% on Windows', () => {
    expect(settingsFileOf('openmv', undefined, { platform: 'linux', home: '/home/anna', env: {} }).file).toBe('/home/anna/.config/OpenMV/OpenMVIDE.ini');
    expect(settingsFileOf('openmv', undefined, { platform: 'darwin', home: '/Users/anna', env: { XDG_CONFIG_HOME: '/x' } }).file).toBe('/x/OpenMV/OpenMVIDE.ini');
    expect(settingsFileOf('openmv', undefined, { platform: 'win32', home: 'C:\\Users\\anna', env: { APPDATA: 'C:\\Users\\anna\\AppData\\Roaming' } }).file).toBe(
      'C:\\Users\\anna\\AppData\\Roaming\\OpenMV\\OpenMVIDE.ini',
    );
  });

  it('picks the MPLAB X version folder whose projectui.properties changed last, and says where it looked when there is none', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'bb-mplab-home-'));
    const environment = { platform: 'linux' as const, home, env: {} };
    expect(settingsFileOf('mplabx', undefined, environment)).toEqual({ file: undefined, lookedAt: `${home}/.mplab_ide/dev/v*/config/Preferences/org/netbeans/modules/projectui.properties` });
    const fileOf = (version: string) => path.join(home, '.mplab_ide', 'dev', version, 'config', 'Preferences', 'org', 'netbeans', 'modules', 'projectui.properties');
    for (const [version, seconds] of [['v6.20', 2000], ['v6.25', 1000]] as const) {
      mkdirSync(path.dirname(fileOf(version)), { recursive: true });
      writeFileSync(fileOf(version), 'openProjectsURLs.0=file:/p/A.X/\n');
      utimesSync(fileOf(version), seconds, seconds);
    }
    mkdirSync(path.join(home, '.mplab_ide', 'dev', 'v6.30'));
    expect(settingsFileOf('mplabx', undefined, environment).file).toBe(fileOf('v6.20'));
    expect(settingsFileOf('mplabx', 'rel/projectui.properties', environment).file).toBe(path.resolve('rel/projectui.properties'));
  });
});
