// Programming changes a device, so it needs a person's consent (DESIGN.md,
// "Least authority"). boards/ never asks: the bridge's permission broker asks
// and hands over this token, bound to one image, part and programmer so it
// cannot authorise programming anything else. Same shape as the Arduino
// upload consent (boards/upload/consent.ts).
import { shownText } from '../consent-text.js';

const consentBrand: unique symbol = Symbol('ProgramConsent');

export interface ProgramTarget {
  /** The `.X` folder or MPLAB for VS Code folder, and its configuration. */
  project: string;
  configuration: string;
  /** The project's device (<targetDevice>, or the .mplab.json configuration's `device`), the part ipecmd will be told to program. */
  device: string;
  /** ipecmd's programmer code (`PK4`, `PKOB4`, `SN`). */
  tool: string;
  /** The built image. */
  image: string;
}

export interface ProgramConsent {
  readonly [consentBrand]: true;
  readonly target: Readonly<ProgramTarget>;
  /** Who agreed: "person via permission prompt", "policy: allow device changes". */
  readonly grantedBy: string;
}

/** The question the permission broker shows. */
export function describeProgram(target: ProgramTarget): string {
  return `program ${shownText(target.image)} into ${shownText(target.device)} with the ${shownText(target.tool)} programmer (MPLAB IPE), erasing what the part holds?`;
}

/** Called by the permission broker once the person (or a policy they set) said yes. */
export function grantProgram(target: ProgramTarget, grantedBy: string): ProgramConsent {
  return { [consentBrand]: true, target: { ...target }, grantedBy };
}

/** Why `consent` does not cover `target`, or undefined when it does. */
export function consentProblem(consent: ProgramConsent | undefined, target: ProgramTarget): string | undefined {
  if (consent?.[consentBrand] !== true) return 'refusing to program: no consent token; the permission broker must ask first';
  const granted = consent.target;
  const differs = (['device', 'tool', 'image'] as const).filter((key) => granted[key] !== target[key]);
  if (differs.length === 0) return undefined;
  return `refusing to program: consent was for ${granted.image} into ${granted.device} with ${granted.tool}, not ${target.image} into ${target.device} with ${target.tool}`;
}
