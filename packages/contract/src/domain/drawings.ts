import { z } from 'zod';

/** Visibility of drawings and image notes: private ones are seen by their author only. */
export const DRAWING_VISIBILITIES = ['private', 'public'] as const;
export const DrawingVisibilitySchema = z.enum(DRAWING_VISIBILITIES);
export type DrawingVisibility = z.infer<typeof DrawingVisibilitySchema>;
