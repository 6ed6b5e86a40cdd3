import { z } from 'zod';

export const LABEL_VISIBILITY = ['private', 'public'] as const;
export const LabelVisibilitySchema = z.enum(LABEL_VISIBILITY);
export type LabelVisibility = z.infer<typeof LabelVisibilitySchema>;

export const PUBLIC_LABEL_ICONS = [
  'Microscope',
  'Stethoscope',
  'Alert',
  'CheckCircle',
  'CheckDottedCircle',
  'Badge',
] as const;
export const PublicLabelIconSchema = z.enum(PUBLIC_LABEL_ICONS);
export type PublicLabelIcon = z.infer<typeof PublicLabelIconSchema>;

/** Public label colours: black, dark red, gold, blue. */
export const LABEL_COLORS = ['#000000', '#8B0000', '#FFD700', '#0000FF'] as const;
export const LabelColorSchema = z.enum(LABEL_COLORS);
export type LabelColor = z.infer<typeof LabelColorSchema>;

export const PRIVATE_LABEL_ICON = 'Star';
export const PRIVATE_LABEL_COLOR = '#FFD700';
/** The one private label: a yellow star, personal to each user. */
export const PRIVATE_LABEL_NAME = `${PRIVATE_LABEL_ICON}-${PRIVATE_LABEL_COLOR}`;

/** Every label name a public label may carry, "IconName-#color". */
export const PUBLIC_LABEL_NAMES = PUBLIC_LABEL_ICONS.flatMap((icon) => LABEL_COLORS.map((color) => `${icon}-${color}`));

export interface ParsedLabelName {
  icon: string;
  color: string;
}

/** Splits "IconName-#color" at its last "-#"; null when the name has no colour part. */
export function parseLabelName(labelName: string): ParsedLabelName | null {
  const at = labelName.lastIndexOf('-#');
  if (at <= 0) return null;
  const color = labelName.slice(at + 1);
  if (!/^#[0-9A-Fa-f]{6}$/.test(color)) return null;
  return { icon: labelName.slice(0, at), color: color.toUpperCase() };
}

export function formatLabelName(icon: string, color: string): string {
  return `${icon}-${color.toUpperCase()}`;
}

export const LABEL_MESSAGES = {
  badName: 'Label name must look like "IconName-#RRGGBB"',
  unknownPublic: 'Unknown public label',
} as const;

export const LabelNameSchema = z
  .string()
  .refine((name) => parseLabelName(name) !== null, { message: LABEL_MESSAGES.badName });

/** A label as sent by the client: the private star, or one of the public icon and colour combinations. */
export const LabelInputSchema = z.discriminatedUnion('visibilityType', [
  z.object({ visibilityType: z.literal('private'), labelName: z.literal(PRIVATE_LABEL_NAME) }),
  z.object({
    visibilityType: z.literal('public'),
    labelName: z.string().refine((name) => PUBLIC_LABEL_NAMES.includes(name), {
      message: LABEL_MESSAGES.unknownPublic,
    }),
  }),
]);
export type LabelInput = z.infer<typeof LabelInputSchema>;
