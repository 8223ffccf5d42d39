// Which project a workspace's prompts are about, found as the Arduino tools find a
// sketch: the person's --sketch; the workspace when it is a project folder; the
// project of the file the editor has open (or the agent read last); the single
// Name/Name.ino below the workspace. Editors open project roots, so the workspace is
// often not the sketch folder. Every outcome but the plain one comes with a line that
// says what was chosen, or why there is no project: nothing is dropped in silence.
import { readdirSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { sketchMainFile } from '../../context-providers/arduino/sketch-main.js';
import type { DetectedProject } from '../../context-providers/types.js';

export interface Discovery {
  /** Absent: no project (the note says why). A project without `main` is the board alone. */
  project?: DetectedProject;
  /** How the project was found when it is not simply the workspace, or why there is none. */
  note?: string;
}

export interface DiscoveryInput {
  workspace: string;
  /** Files the editor has open or the agent read, most recent first. */
  files?: string[];
  /** --sketch: a sketch's name, or its folder or .ino (relative to the workspace or absolute). */
  sketch?: string;
  /** The board selected (--fqbn/--board): with no project at all, an FQBN gives the board's context alone. */
  board?: string;
  /** Whether a folder is a project some provider recognises. */
  detect: (dir: string) => Promise<DetectedProject | undefined>;
}

/** How deep below the workspace sketches are looked for, and how many folders at most. */
const SCAN_DEPTH = 4;
const SCAN_FOLDERS = 5000;
const SKIPPED = new Set(['node_modules', 'build', 'dist', '__pycache__']);

export async function discoverProject(input: DiscoveryInput): Promise<Discovery> {
  const { workspace, detect } = input;
  const shown = (file: string) => path.relative(workspace, file) || path.basename(file);
  if (input.sketch) return namedSketch(input, shown);
  const own = await detect(workspace);
  if (own) return { project: own };

  for (const file of input.files ?? []) {
    if (!inside(file, workspace)) continue;
    for (let dir = path.dirname(file); inside(dir, workspace) && dir !== workspace; dir = path.dirname(dir)) {
      const project = (await detect(dir)) ?? loneSketch(dir);
      if (project) return { project, note: joinNotes(`The project is ${shown(project.main ?? dir)}, the one of ${shown(file)} (open in the editor).`, loneNote(project, shown)) };
    }
  }
  const lone = loneSketch(workspace);
  if (lone) return { project: lone, note: loneNote(lone, shown) };

  const { sketches, lones } = scan(workspace);
  const found = sketches.length ? sketches : lones;
  if (found.length) {
    const project = found[0];
    const choice = found.length === 1
      ? `The sketch is ${shown(project.main!)}, found below the workspace ${workspace}.`
      : `Of ${found.length} sketches below ${workspace} (${found.map((p) => shown(p.main!)).join(', ')}), ${shown(project.main!)} was chosen; start boardbridge with --sketch NAME to choose another.`;
    return { project, note: joinNotes(choice, loneNote(project, shown)) };
  }
  if (input.board && isFqbn(input.board)) {
    return {
      project: { kind: 'arduino', root: workspace },
      note: `No sketch in ${workspace} (a sketch is a folder Name holding Name.ino): this is the context of the board ${input.board} alone, without findings about the code.`,
    };
  }
  return {
    note: `${workspace} holds no Arduino sketch (Name/Name.ino, up to ${SCAN_DEPTH} folders down), MPLAB X project or OpenMV script${input.board ? `, and --board ${input.board} is not an Arduino FQBN` : ''}; start boardbridge with --sketch DIR, or with --fqbn for the board's context alone.`,
  };
}

async function namedSketch(input: DiscoveryInput, shown: (file: string) => string): Promise<Discovery> {
  const given = input.sketch!;
  const target = path.resolve(input.workspace, given);
  const kind = fileKind(target);
  if (kind) {
    const dir = kind === 'file' ? path.dirname(target) : target;
    const project = (await input.detect(dir)) ?? (kind === 'file' && /\.(ino|pde)$/.test(target) ? { kind: 'arduino' as const, root: dir, main: target } : loneSketch(dir));
    if (project) return { project, note: loneNote(project, shown) };
    return { note: `--sketch ${given}: ${target} is no Arduino sketch (Name/Name.ino), MPLAB X project or OpenMV script.` };
  }
  const { sketches, lones } = scan(input.workspace);
  const name = given.replace(/\.(ino|pde)$/, '');
  const project = [...sketches, ...lones].find((p) => path.basename(p.root) === name || path.basename(p.main!).replace(/\.(ino|pde)$/, '') === name);
  if (project) return { project, note: loneNote(project, shown) };
  const known = [...sketches, ...lones].map((p) => shown(p.main!));
  return { note: `--sketch ${given} names no sketch below ${input.workspace}${known.length ? ` (there are: ${known.join(', ')})` : ' (there is none)'}.` };
}

/** A folder whose one .ino is not named after it: Arduino will not compile it as it is, but it is the sketch. */
function loneSketch(dir: string): DetectedProject | undefined {
  if (sketchMainFile(dir)) return undefined;
  let inos: string[];
  try {
    inos = readdirSync(dir).filter((name) => /\.(ino|pde)$/.test(name) && !name.startsWith('.'));
  } catch {
    return undefined;
  }
  if (inos.length !== 1 || fileKind(path.join(dir, inos[0])) !== 'file') return undefined;
  return { kind: 'arduino', root: dir, main: path.join(dir, inos[0]) };
}

function loneNote(project: DetectedProject, shown: (file: string) => string): string | undefined {
  if (project.kind !== 'arduino' || !project.main || sketchMainFile(project.root) === project.main) return undefined;
  const folder = path.basename(project.root);
  const file = path.basename(project.main);
  const stem = file.replace(/\.(ino|pde)$/, '');
  return `${shown(project.main)} is not in a folder of its own name: Arduino compiles a sketch only as Name/Name.ino, so rename it to ${folder}${path.extname(file)} (or move it into a folder ${stem}/) before compiling or uploading.`;
}

/** Sketch folders below the workspace, shallowest first; folders with one .ino of another name apart. */
function scan(workspace: string): { sketches: DetectedProject[]; lones: DetectedProject[] } {
  const sketches: DetectedProject[] = [];
  const lones: DetectedProject[] = [];
  let level = [workspace];
  let visited = 0;
  for (let depth = 1; depth <= SCAN_DEPTH && level.length; depth++) {
    const next: string[] = [];
    for (const parent of level) {
      for (const entry of subfolders(parent)) {
        if (++visited > SCAN_FOLDERS) return { sketches, lones };
        const dir = path.join(parent, entry);
        const main = sketchMainFile(dir);
        if (main) {
          sketches.push({ kind: 'arduino', root: dir, main });
          continue; // a sketch's own folders (src/) are part of it
        }
        const lone = loneSketch(dir);
        if (lone) lones.push(lone);
        next.push(dir);
      }
    }
    level = next;
  }
  return { sketches, lones };
}

function subfolders(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  // Symbolic links are not followed: no loops, nothing outside the workspace.
  return entries.filter((e) => e.isDirectory() && !e.name.startsWith('.') && !SKIPPED.has(e.name)).map((e) => e.name).sort();
}

function fileKind(file: string): 'file' | 'dir' | undefined {
  try {
    const stat = statSync(file);
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'dir' : undefined;
  } catch {
    return undefined;
  }
}

function inside(file: string, dir: string): boolean {
  const relative = path.relative(dir, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function isFqbn(board: string): boolean {
  return /^[^:\s]+:[^:\s]+:[^:\s]+/.test(board);
}

function joinNotes(...notes: Array<string | undefined>): string {
  return notes.filter(Boolean).join(' ');
}
