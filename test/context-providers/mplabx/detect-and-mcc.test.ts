// Which folders are MPLAB projects, and the pin names MCC and Harmony record.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMplabxProvider, detectMplabProject } from '../../../context-providers/mplabx/index.js';
import { readMc3, readPinConfigurationsCsv, readPinsHeader } from '../../../context-providers/mplabx/mcc.js';
import { ownFixtures, removeTempDirs, sharedFixtures, tempDir } from './support.js';

afterAll(removeTempDirs);

describe('detecting MPLAB projects', () => {
  it('recognises an .X folder with the Microchip project type', async () => {
    const folder = join(sharedFixtures, 'dspic33ck-curiosity-canfd.X');
    expect(await detectMplabProject(folder)).toEqual({ kind: 'mplabx', root: folder, main: join(folder, 'nbproject', 'project.xml') });
  });

  it('finds the .X folder inside a workspace folder', async () => {
    expect((await detectMplabProject(sharedFixtures))?.root).toBe(join(sharedFixtures, 'dspic33ck-curiosity-canfd.X'));
  });

  it('does not take a plain NetBeans C project for an MPLAB project', async () => {
    expect(await detectMplabProject(join(ownFixtures, 'netbeans-c-app'))).toBeUndefined();
  });

  it('recognises an MPLAB for VS Code project by .vscode/*.mplab.json and reads it', async () => {
    const folder = join(ownFixtures, 'vscode-blink');
    const detected = await detectMplabProject(folder);
    expect(detected).toEqual({ kind: 'mplabx', root: folder, main: join(folder, '.vscode', 'blink.mplab.json') });
    const context = await createMplabxProvider({ packRoots: [] }).load(detected!, {});
    expect(context.board.id).toBe('PIC18F47Q10');
    // The toolchain is the property group the configuration names; its provider carries compiler and version.
    expect(context.toolchain).toMatchObject({ name: 'XC8', version: '3.00', source: { line: 24 } });
    expect(context.toolchain?.options?.map((o) => `${o.name}=${o.value}`)).toEqual(['optimization=2', 'define=_XTAL_FREQ=64000000', 'include-dir=include']);
    expect(context.libraries[0]).toMatchObject({ name: 'PIC18F-Q_DFP', version: '1.26.442', source: { line: 11 } });
    // The glob matches the sources and leaves out/ and .vscode/ out; the listed path that does not exist is missing.
    expect(context.project?.files?.map((f) => `${f.path}${f.missing ? ' (missing)' : ''}`)).toEqual(['include/board.h', 'src/main.c', 'drivers/uart.c (missing)']);
  });

  it('says nothing about a folder that holds no project', async () => {
    expect(await detectMplabProject(join(ownFixtures, 'atdf'))).toBeUndefined();
    expect(await detectMplabProject(join(ownFixtures, 'no-such-folder'))).toBeUndefined();
  });
});

describe('MCC and Harmony pin names', () => {
  it('reads user names, locked roles and PPS inputs from a Melody .mc3', () => {
    const file = join(sharedFixtures, 'pic18f47q10-curiosity-hpc-demo-code.X', 'pic18f47q10-curiosity-hpc-demo-code.mc3');
    const { pins, warnings } = readMc3(readFileSync(file, 'utf8'), file);
    expect(warnings).toEqual([]);
    const byPad = Object.fromEntries(pins.map((p) => [p.pad, p]));
    expect(byPad.RA4).toMatchObject({ userName: 'LED_D2', functions: ['GPIO output'], source: { file, line: 208 } });
    expect(byPad.RA0).toMatchObject({ userName: 'POT_CHANNEL', functions: ['ADCC ANx'] });
    expect(byPad.RB4).toMatchObject({ userName: 'SWITCH_S1', functions: ['CLCIN2', 'T4IN'] });
    expect(byPad.RC6).toMatchObject({ functions: ['TX1'] });
  });

  it('reads custom pin names from an MCC Classic .mc3', () => {
    const classic = [
      '<config configName="default" device="PIC16F18446">',
      '  <tokenMap class="java.util.TreeMap">',
      '    <entry>',
      '      <key class="com.microchip.mcc.core.tokenManager.CustomKey" moduleName="Pin Module" name="RC5custom_name"/>',
      '      <value>LED_RED</value>',
      '    </entry>',
      '    <entry>',
      '      <key class="com.microchip.mcc.core.tokenManager.CustomKey" moduleName="Pin Module" name="RC5output"/>',
      '      <value>enabled</value>',
      '    </entry>',
      '  </tokenMap>',
      '</config>',
    ].join('\n');
    expect(readMc3(classic, 'classic.mc3').pins).toEqual([{ pad: 'RC5', userName: 'LED_RED', functions: [], source: { file: 'classic.mc3', line: 5 } }]);
  });

  it('uses the .mc3 of the configuration in use when MCC keeps one per configuration', async () => {
    const folder = join(tempDir('mplabx-mc3-'), 'two-states.X');
    cpSync(join(sharedFixtures, 'pic18f47q10-curiosity-hpc-demo-code.X'), folder, { recursive: true });
    writeFileSync(
      join(folder, 'pro.mc3'),
      '<config configName="pro" device="PIC18F47Q10"><tokenMap><entry><key moduleName="Pin Module" name="RB0custom_name"/><value>BUZZER</value></entry></tokenMap></config>',
    );
    const provider = createMplabxProvider({ packRoots: [] });
    const detected = (await provider.detect(folder))!;
    const pro = await provider.load(detected, { configuration: 'pro' });
    const free = await provider.load(detected, { configuration: 'free' });
    expect(pro.pins.map((p) => p.names.join('='))).toEqual(['RB0=BUZZER']);
    expect(free.pins.map((p) => p.names.join('='))).toContain('RA4=LED_D2');
    expect(free.pins.map((p) => p.names.join('='))).not.toContain('RB0=BUZZER');
  });

  it('reads pin names from pins.h macros, PIC and AVR style', () => {
    const pic = readPinsHeader('// get/set IO_RA4 aliases\n#define LED_D2_TRIS TRISAbits.TRISA4\n#define LED_D2_SetHigh() do { LATAbits.LATA4 = 1; } while(0)\n#define IO_RC6_SetHigh() do { LATCbits.LATC6 = 1; } while(0)\n#define LED_SetHigh() (_LATE13 = 1)\n', 'pins.h');
    expect(pic.map((p) => [p.pad, p.userName, p.source.line])).toEqual([
      ['RA4', 'LED_D2', 2],
      ['RC6', undefined, 4],
      ['RE13', 'LED', 5],
    ]);
    const file = join(ownFixtures, 'avr-blink.X', 'mcc_generated_files', 'system', 'pins.h');
    expect(readPinsHeader(readFileSync(file, 'utf8'), file).map((p) => `${p.pad}=${p.userName}`)).toEqual(['PB5=LED', 'PD2=BUTTON']);
  });

  it("reads Harmony's pin_configurations.csv with package pin numbers, skipping unused pins", () => {
    const file = join(ownFixtures, 'pic32-harmony', 'firmware', 'src', 'config', 'default', 'pin_configurations.csv');
    const { pins } = readPinConfigurationsCsv(readFileSync(file, 'utf8'), file);
    expect(pins.map((p) => [p.pinNumber, p.pad, p.userName, p.functions])).toEqual([
      [17, 'RH0', 'LED1', ['GPIO out']],
      [35, 'RB12', 'SWITCH1', ['GPIO in']],
      [51, 'RD15', undefined, ['U1TX']],
      [52, 'RD14', undefined, ['U1RX']],
    ]);
  });

  it('finds Harmony output outside the .X folder, where the project items point', async () => {
    const provider = createMplabxProvider({ packRoots: [] });
    const detected = (await provider.detect(join(ownFixtures, 'pic32-harmony', 'firmware', 'blink.X')))!;
    const context = await provider.load(detected, {});
    expect(context.pins.find((p) => p.names.includes('LED1'))).toMatchObject({ number: 17, assigned: ['GPIO out'] });
    expect(context.toolchain?.options?.map((o) => `${o.name}=${o.value}`)).toEqual([
      'optimization=-O1',
      'define=HAVE_CONFIG_H',
      'define=XPRJ_default=default',
      'include-dir=../src',
      'include-dir=../src/config/default',
      'function-sections=true',
      'heap-size=512',
      'min-stack-size=1024',
      'legacy-libc=false',
    ]);
  });
});

describe('rendering', () => {
  it('prints device, configurations, toolchain, pack, options, files and pins with their sources', async () => {
    const provider = createMplabxProvider({ packRoots: [] });
    const detected = (await provider.detect(join(sharedFixtures, 'pic18f47q10-curiosity-hpc-demo-code.X')))!;
    const text = provider.render(await provider.load(detected, {}));
    expect(text).toContain('- Device: PIC18F47Q10, PIC18 (8-bit, PIC18 core) (nbproject/configurations.xml:174)');
    expect(text).toContain('- Configuration in use: free (nbproject/configurations.xml:171); others: pro');
    expect(text).toContain('- Toolchain: XC8 3.00 (nbproject/configurations.xml:178)');
    expect(text).toContain('- Device pack: PIC18F-Q_DFP 1.26.442 (not installed here) (nbproject/configurations.xml:183)');
    expect(text).toContain('  - optimization: -O0 (nbproject/configurations.xml:233)');
    expect(text).toContain('- RA4 = LED_D2: set as GPIO output (pic18f47q10-curiosity-hpc-demo-code.mc3:208)');
    expect(text).toMatch(/- Missing files: 52 \(mcc_generated_files\/adc\/adc\.h/);
  });
});
