import { createHash } from 'node:crypto';

/** A UUID as a UID under the 2.25 root (PS3.5 §B.2): the UUID's 128 bits as one decimal integer. */
export function uuidUid(uuid: string): string {
  const hex = uuid.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error(`${uuid} is not a UUID`);
  return `2.25.${BigInt(`0x${hex}`).toString()}`;
}

/**
 * A UID for something that has no id of its own (a level, the frame of reference) but belongs to one of ours:
 * 128 bits of SHA-256 over the owner's id and the part's name, under 2.25. The same on every server and after
 * every reprocess, since neither the image id nor the part's name changes.
 */
export function derivedUid(ownerId: string, part: string): string {
  const digest = createHash('sha256').update(`${ownerId}/${part}`).digest('hex').slice(0, 32);
  return `2.25.${BigInt(`0x${digest}`).toString()}`;
}

/** A case is a study, a slide (image) a series; the rest is derived from the image's id. */
export const dicomUids = {
  study: (caseId: string) => uuidUid(caseId),
  series: (imageId: string) => uuidUid(imageId),
  instance: (imageId: string, part: string) => derivedUid(imageId, `instance/${part}`),
  frameOfReference: (imageId: string) => derivedUid(imageId, 'frame-of-reference'),
  dimensionOrganization: (imageId: string) => derivedUid(imageId, 'dimension-organization'),
  specimen: (imageId: string) => derivedUid(imageId, 'specimen'),
};

/** The UUID a 2.25 UID was made from by uuidUid; null for any other UID (derived ones, foreign ones). */
export function uuidOfUid(uid: string): string | null {
  const match = /^2\.25\.(0|[1-9][0-9]{0,38})$/.exec(uid.trim());
  if (match == null) return null;
  const number = BigInt(match[1]!);
  if (number >= 2n ** 128n) return null;
  const hex = number.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
