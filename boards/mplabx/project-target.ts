// Resolves which MPLAB X project and configuration a build or program
// command acts on, from the project files alone (never from a device).
import { chooseConfiguration, detectMplabProject, readProject } from '../../context-providers/mplabx/index.js';
import type { MplabConfiguration, MplabProject } from '../../context-providers/mplabx/index.js';

export interface ProjectTarget {
  project: MplabProject;
  configuration: MplabConfiguration;
  /** Warnings met on the way (unknown --conf, malformed XML). */
  notes: string[];
}

export async function resolveTarget(folder: string, requested: string | undefined): Promise<ProjectTarget | { error: string }> {
  const detected = await detectMplabProject(folder);
  if (!detected) {
    return { error: `${folder}: not an MPLAB X project (no nbproject/project.xml with type com.microchip.mplab.nbide.embedded.makeproject); pass the .X folder` };
  }
  if (detected.main?.endsWith('.mplab.json')) {
    return { error: `${detected.main}: MPLAB for VS Code projects are built by the MPLAB extension's CMake flow, not by make; build it in VS Code` };
  }
  const project = await readProject(detected);
  const { conf, warnings } = chooseConfiguration(project, requested);
  if (!conf) return { error: `${project.root}: the project has no configuration (nbproject/configurations.xml has no <conf>)` };
  if (requested && conf.name !== requested) {
    return { error: `configuration "${requested}" does not exist in ${project.name}; available: ${project.configurations.map((c) => c.name).join(', ')}` };
  }
  return { project, configuration: conf, notes: [...project.warnings, ...warnings].map((w) => w.message) };
}
