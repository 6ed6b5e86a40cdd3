import {
  ImageAlignmentAnswerSchema,
  ImageAlignmentSchema,
  type AlignmentPointPair,
  type ImageAlignment,
} from '@pathology/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

const pairPath = (imageId: string, otherImageId: string) =>
  `/images/${encodeURIComponent(imageId)}/alignments/${encodeURIComponent(otherImageId)}`;

export const alignmentQueryKey = (imageId: string, otherImageId: string) =>
  ['alignments', imageId, otherImageId] as const;

/** The pair's saved point alignment; null when none is saved. */
export const alignmentQuery = (imageId: string, otherImageId: string) =>
  queryOptions({
    queryKey: alignmentQueryKey(imageId, otherImageId),
    queryFn: ({ signal }): Promise<ImageAlignment | null> =>
      api.get(pairPath(imageId, otherImageId), { signal, schema: ImageAlignmentAnswerSchema }),
  });

export function useSaveAlignment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { imageId: string; otherImageId: string; points: AlignmentPointPair[] }) =>
      api.put(pairPath(input.imageId, input.otherImageId), { points: input.points }, { schema: ImageAlignmentSchema }),
    onSuccess: (saved) => client.setQueryData(alignmentQueryKey(saved.imageId, saved.otherImageId), saved),
  });
}

export function useRemoveAlignment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { imageId: string; otherImageId: string }) =>
      api.delete(pairPath(input.imageId, input.otherImageId)),
    onSuccess: (_, input) => client.setQueryData(alignmentQueryKey(input.imageId, input.otherImageId), null),
  });
}
