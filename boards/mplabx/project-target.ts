// Resolves which MPLAB project (MPLAB X or MPLAB for VS Code) and
// configuration a build or program command acts on, from the project files
// alone (never from a device).
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
    return {
      error: `${folder}: not an MPLAB project (no nbproject/project.xml with type com.microchip.mplab.nbide.embedded.makeproject, no .vscode/*.mplab.json); pass the .X folder or the VS Code project folder`,
    };
  }
  const project = await readProject(detected);
  const { conf, warnings } = chooseConfiguration(project, requested);
  if (!conf) {
    const where = project.format === 'vscode' ? `${project.inputs[0]} has no "configurations"` : 'nbproject/configurations.xml has no <conf>';
    return { error: `${project.root}: the project has no configuration (${where})` };
  }
  if (requested && conf.name !== requested) {
    return { error: `configuration "${requested}" does not exist in ${project.name}; available: ${project.configurations.map((c) => c.name).join(', ')}` };
  }
  return { project, configuration: conf, notes: [...project.warnings, ...warnings].map((w) => w.message) };
}
