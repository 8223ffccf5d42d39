// Which project a workspace's prompts are about (bridge/context/sketch-discovery.ts),
// on real folders, with the real providers deciding what a project folder is.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContextService } from '../../bridge/context/context-service.js';
import { discoverProject } from '../../bridge/context/sketch-discovery.js';
import { allProviders } from '../../context-providers/index.js';
import { tempTree } from '../support/temp-tree.js';

const contexts = new ContextService(allProviders());
const detect = async (dir: string) => (await contexts.detect(dir))?.project;

const tree = (files: string[]) => tempTree(files, 'bb-discovery-');

describe('sketch discovery', () => {
  it('takes the workspace itself when it is a sketch folder, without a note', async () => {
    const root = tree(['Blink/Blink.ino', 'Blink/other/other.ino']);
    expect(await discoverProject({ workspace: path.join(root, 'Blink'), detect })).toEqual({ project: { kind: 'arduino', root: path.join(root, 'Blink'), main: path.join(root, 'Blink', 'Blink.ino') } });
  });

  it('finds the single Name/Name.ino below a project root and says so', async () => {
    const root = tree(['README.md', 'firmware/firmware.ino', 'node_modules/pkg/pkg.ino', '.git/hooks/hooks.ino', 'build/build.ino']);
    const found = await discoverProject({ workspace: root, detect });
    expect(found.project?.main).toBe(path.join(root, 'firmware', 'firmware.ino'));
    expect(found.note).toBe(`The sketch is firmware/firmware.ino, found below the workspace ${root}.`);
  });

  it('chooses the shallowest of several sketches, names the others, and takes the one --sketch names', async () => {
    const root = tree(['b/b.ino', 'apps/a/a.ino']);
    const found = await discoverProject({ workspace: root, detect });
    expect(found.project?.main).toBe(path.join(root, 'b', 'b.ino'));
    expect(found.note).toBe(`Of 2 sketches below ${root} (b/b.ino, apps/a/a.ino), b/b.ino was chosen; start boardbridge with --sketch NAME to choose another.`);
    expect((await discoverProject({ workspace: root, detect, sketch: 'a' })).project?.main).toBe(path.join(root, 'apps', 'a', 'a.ino'));
    expect((await discoverProject({ workspace: root, detect, sketch: 'apps/a/a.ino' })).project?.main).toBe(path.join(root, 'apps', 'a', 'a.ino'));
    expect(await discoverProject({ workspace: root, detect, sketch: 'c' })).toEqual({ note: `--sketch c names no sketch below ${root} (there are: b/b.ino, apps/a/a.ino).` });
  });

  it('takes the sketch of the file the editor has open over the others', async () => {
    const root = tree(['b/b.ino', 'apps/a/a.ino', 'apps/a/src/motor.cpp']);
    const found = await discoverProject({ workspace: root, detect, files: [path.join(root, 'apps', 'a', 'src', 'motor.cpp')] });
    expect(found.project?.main).toBe(path.join(root, 'apps', 'a', 'a.ino'));
    expect(found.note).toBe('The project is apps/a/a.ino, the one of apps/a/src/motor.cpp (open in the editor).');
  });

  it('uses a lone .ino in a folder of another name, with the note that Arduino compiles only Name/Name.ino', async () => {
    const root = tree(['proj/sketch.ino']);
    const found = await discoverProject({ workspace: path.join(root, 'proj'), detect });
    expect(found.project).toEqual({ kind: 'arduino', root: path.join(root, 'proj'), main: path.join(root, 'proj', 'sketch.ino') });
    expect(found.note).toBe('sketch.ino is not in a folder of its own name: Arduino compiles a sketch only as Name/Name.ino, so rename it to proj.ino (or move it into a folder sketch/) before compiling or uploading.');
  });

  it('gives the board alone for a workspace without any sketch when an FQBN is selected, and otherwise says why there is nothing', async () => {
    const root = tree(['notes.txt']);
    const boardOnly = await discoverProject({ workspace: root, detect, board: 'arduino:avr:uno' });
    expect(boardOnly.project).toEqual({ kind: 'arduino', root });
    expect(boardOnly.note).toMatch(/^No sketch in .*: this is the context of the board arduino:avr:uno alone, without findings about the code\.$/);
    const none = await discoverProject({ workspace: root, detect });
    expect(none.project).toBeUndefined();
    expect(none.note).toBe(`${root} holds no Arduino sketch (Name/Name.ino, up to 4 folders down), MPLAB X project or OpenMV script; start boardbridge with --sketch DIR, or with --fqbn for the board's context alone.`);
  });

  it('builds the board-only context without sketch findings, and the lone sketch with them', async () => {
    const root = tree(['notes.txt']);
    const { loaded } = await contexts.loadWorkspace(root, { board: 'arduino:avr:uno' });
    expect(loaded?.markdown).toMatch(/^# Arduino board: Arduino UNO — `arduino:avr:uno`/);
    expect(loaded?.markdown).not.toContain('## Findings in the sketch');
    const lone = tree(['proj/sketch.ino']);
    writeFileSync(path.join(lone, 'proj', 'sketch.ino'), 'void setup() { analogWrite(7, 128); }\nvoid loop() {}\n');
    const withSketch = await contexts.loadWorkspace(path.join(lone, 'proj'), { board: 'arduino:avr:uno' });
    expect(withSketch.loaded?.markdown).toContain('## Findings in the sketch');
    expect(withSketch.note).toContain('Arduino compiles a sketch only as Name/Name.ino');
  });
});
