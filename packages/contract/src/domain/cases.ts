import { z } from 'zod';

export const SPECIMEN_TYPES = ['biopsy', 'surgical', 'LBC', 'autopsy'] as const;
export const SpecimenTypeSchema = z.enum(SPECIMEN_TYPES);
export type SpecimenType = z.infer<typeof SpecimenTypeSchema>;

/** Longest accepted tag text (case tags and image tags). */
export const MAX_TAG_LENGTH = 200;

export const DEFAULT_PAGE_SIZE = 10;
export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100] as const;
