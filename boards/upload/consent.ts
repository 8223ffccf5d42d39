// Uploading changes a device, so it needs a person's consent (DESIGN.md, "Least authority").
// boards/ never asks; the bridge's permission broker asks and hands over this token, which is
// bound to one image, board and port so it cannot authorise some other upload.
import { shownText } from '../consent-text.js';

const consentBrand: unique symbol = Symbol('UploadConsent');

export interface UploadTarget {
  image: string;
  fqbn: string;
  port: string;
  /** Board name for the question, e.g. "Arduino Uno". */
  boardName?: string;
}

export interface UploadConsent {
  readonly [consentBrand]: true;
  readonly target: Readonly<UploadTarget>;
  /** Who agreed: "person via permission prompt", "policy: allow uploads to /dev/ttyACM0". */
  readonly grantedBy: string;
}

/** The question the permission broker shows: "upload build/x.hex to Arduino Uno on /dev/ttyACM0?" */
export function describeUpload(target: UploadTarget): string {
  return `upload ${shownText(target.image)} to ${shownText(target.boardName ?? target.fqbn)} on ${shownText(target.port)}?`;
}

/** Called by the permission broker once the person (or a policy they set) said yes. */
export function grantUpload(target: UploadTarget, grantedBy: string): UploadConsent {
  return { [consentBrand]: true, target: { ...target }, grantedBy };
}

/** Throws unless `consent` is a granted token for exactly this image, board and port. */
export function checkConsent(consent: UploadConsent, target: UploadTarget): void {
  if (consent?.[consentBrand] !== true) {
    throw new Error('upload refused: no consent token; the permission broker must ask first');
  }
  const granted = consent.target;
  if (granted.image !== target.image || granted.fqbn !== target.fqbn || granted.port !== target.port) {
    throw new Error(
      `upload refused: consent was for ${granted.image} (${granted.fqbn}) on ${granted.port}, not ${target.image} (${target.fqbn}) on ${target.port}`,
    );
  }
}
