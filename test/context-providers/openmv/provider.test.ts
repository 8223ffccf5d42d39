import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { OpenMvBoardError, openmvProvider } from '../../../context-providers/openmv/index.js';

const fixtures = fileURLToPath(new URL('../../fixtures/openmv/', import.meta.url));
const drive = join(fixtures, 'camera-drive');
const scratch = mkdtempSync(join(tmpdir(), 'openmv-provider-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('openmvProvider', () => {
  it('recognises a camera drive by its main.py and openmv.config', async () => {
    expect(await openmvProvider.detect(drive)).toEqual({ kind: 'openmv', root: drive, main: join(drive, 'main.py') });
  });

  it('recognises a single script that imports sensor or csi', async () => {
    const script = join(fixtures, 'scripts', 'csi_v5_triple_buffer.py');
    expect(await openmvProvider.detect(script)).toMatchObject({ kind: 'openmv', main: script });
  });

  it('ignores Python that never touches the camera, and folders without camera scripts', async () => {
    const folder = join(scratch, 'plain');
    mkdirSync(folder);
    writeFileSync(join(folder, 'tool.py'), 'import os\nprint(os.getcwd())\n');
    writeFileSync(join(folder, 'notes.txt'), 'import sensor\n');
    expect(await openmvProvider.detect(join(folder, 'tool.py'))).toBeUndefined();
    expect(await openmvProvider.detect(folder)).toBeUndefined();
    expect(await openmvProvider.detect(join(scratch, 'missing'))).toBeUndefined();
  });

  it('renders the camera, its sensors, both frame buffer budgets, the largest frames, openmv.config and the findings', async () => {
    const project = (await openmvProvider.detect(drive))!;
    const context = await openmvProvider.load(project, { board: 'OPENMV4' });
    const markdown = openmvProvider.render(context);
    expect(markdown).toContain('## OpenMV camera: OpenMV Cam H7 (OPENMV4)');
    expect(markdown).toContain('MCU STM32H743');
    expect(markdown).toContain('sensors: OV2640, OV5640, OV7725');
    expect(markdown).toContain('main.py uses the sensor module (firmware 4.x API); the camera firmware is unknown');
    expect(markdown).toContain('frame buffer, firmware 4.7+ (OMV_FB_SIZE), in use: 409,600 bytes [openmv/openmv@v4.8.1/boards/OPENMV4/omv_boardconfig.h:132]');
    expect(markdown).toContain('frame buffer, firmware before 4.7 (OMV_FB_SIZE); IDE JPEG buffer 32 KB (OMV_JPEG_SIZE): 409,600 bytes [openmv/openmv@v4.6.20/src/omv/boards/OPENMV4/omv_boardconfig.h:137]');
    expect(markdown).toContain('RGB565 HVGA 480×320 (307,200 bytes; 4:3 QVGA)');
    expect(markdown).toContain('[BoardConfig] REPLUart = false');
    expect(markdown).toContain('- error: main.py line 12: VGA RGB565 needs 614,400 bytes; the OpenMV Cam H7 frame buffer holds about 400 KB — use GRAYSCALE (307,200 bytes) or QVGA');
    expect(context.inputs).toEqual(expect.arrayContaining([join(drive, 'main.py'), join(drive, 'openmv.config')]));
  });

  it('keeps the Wi-Fi key of openmv.config out of the context', async () => {
    const context = await openmvProvider.load((await openmvProvider.detect(drive))!, { board: 'OPENMV4' });
    const markdown = openmvProvider.render(context);
    expect(markdown).toContain('ClientKey = (set, not shown)');
    expect(markdown).not.toContain('secret123');
  });

  it('compares the script generation with the camera firmware when it is known', async () => {
    const script = join(fixtures, 'scripts', 'csi_v5_triple_buffer.py');
    const project = (await openmvProvider.detect(script))!;
    const old = openmvProvider.render(await openmvProvider.load(project, { board: 'OpenMV Cam H7', firmware: '4.6.20' }));
    expect(old).toContain('the camera runs firmware 4.6.20 (sensor API)');
    expect(old).toContain('csi.CSI() does not exist in firmware 4.6.20');
    const current = openmvProvider.render(await openmvProvider.load(project, { board: 'OMV4 H7 1024', firmware: '5.0.0' }));
    expect(current).toContain('frame buffer, firmware 5.x (OMV_UMA_BLOCK0_SIZE), in use: 491,520 bytes');
    expect(current).not.toContain('### Findings');
  });

  it('takes the firmware generation from the USB identity of a 5.x camera', async () => {
    const context = await openmvProvider.load((await openmvProvider.detect(drive))!, { board: '37C5:1204' });
    const markdown = openmvProvider.render(context);
    expect(markdown).toContain('OpenMV Cam H7 (OPENMV4)');
    expect(markdown).toContain('the camera runs firmware 5.x (csi.CSI() API; sensor kept for old scripts)');
    expect(markdown).toContain('frame buffer, firmware 5.x (OMV_UMA_BLOCK0_SIZE), in use: 491,520 bytes');
    expect(context.findings.map((f) => [f.code, f.line])).toEqual([['wrong-generation', 8], ['framebuffer', 12]]);
    expect(markdown).toContain('firmware 5.x keeps it for old scripts');
  });

  it('lists the imports, telling the firmware modules from a module file beside the script', async () => {
    const folder = join(scratch, 'with-module');
    mkdirSync(folder);
    writeFileSync(join(folder, 'main.py'), 'import sensor\nimport tracker\n');
    writeFileSync(join(folder, 'tracker.py'), 'def track():\n    pass\n');
    const context = await openmvProvider.load((await openmvProvider.detect(folder))!, { board: 'OPENMV4' });
    expect(context.libraries.map((l) => [l.include, l.location])).toEqual([['sensor', 'builtin'], ['tracker', 'sketch']]);
  });

  it('still gives the board context for a script that does not parse', async () => {
    const script = join(fixtures, 'scripts', 'broken_syntax.py');
    const context = await openmvProvider.load((await openmvProvider.detect(script))!, { board: 'OPENMV4P' });
    const markdown = openmvProvider.render(context);
    expect(markdown).toContain('OpenMV Cam H7 Plus (OPENMV4P)');
    expect(markdown).toContain("broken_syntax.py line 5: '(' is never closed");
  });

  it('analyses the files the prompt concerns instead of main.py', async () => {
    const project = (await openmvProvider.detect(drive))!;
    const other = join(fixtures, 'scripts', 'nicla_jpeg.py');
    const context = await openmvProvider.load(project, { board: 'ARDUINO_NICLA_VISION', files: [other] });
    expect(context.findings.map((f) => f.file)).toEqual([other, other, other]);
  });

  it('rejects an unknown board with the known boards and the nearest one', async () => {
    const project = (await openmvProvider.detect(drive))!;
    const error = await openmvProvider.load(project, { board: 'OPENMV_RT1062' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenMvBoardError);
    expect((error as OpenMvBoardError).nearest).toBe('OPENMV_RT1060');
    expect((error as OpenMvBoardError).message).toContain('Known boards: OPENMV2');
  });

  it('asks for a board when none is selected', async () => {
    const project = (await openmvProvider.detect(drive))!;
    await expect(openmvProvider.load(project, {})).rejects.toThrow(/No OpenMV board selected: pass --board with one of OPENMV2/);
  });
});
