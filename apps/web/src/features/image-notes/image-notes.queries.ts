import {
  ImageNoteListSchema,
  ImageNoteSchema,
  type CreateImageNoteRequest,
  type ImageNote,
  type UpdateImageNoteRequest,
} from '@pathology/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export const imageNoteQueryKeys = {
  list: (imageId: string) => ['image-notes', imageId] as const,
};

const notesPath = (imageId: string) => `/images/${encodeURIComponent(imageId)}/notes`;

export function useImageNotes(imageId: string) {
  return useQuery({
    queryKey: imageNoteQueryKeys.list(imageId),
    queryFn: ({ signal }) => api.get(notesPath(imageId), { signal, schema: ImageNoteListSchema }),
  });
}

/** Add, change and delete notes; the list is read again after each. */
export function useImageNoteActions(imageId: string) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: imageNoteQueryKeys.list(imageId) });
  return {
    create: useMutation({
      mutationFn: (note: CreateImageNoteRequest) => api.post(notesPath(imageId), note, { schema: ImageNoteSchema }),
      onSuccess,
    }),
    update: useMutation({
      mutationFn: ({ note, patch }: { note: ImageNote; patch: UpdateImageNoteRequest }) =>
        api.patch(`${notesPath(imageId)}/${encodeURIComponent(note.id)}`, patch, { schema: ImageNoteSchema }),
      onSuccess,
    }),
    remove: useMutation({
      mutationFn: (note: ImageNote) => api.delete(`${notesPath(imageId)}/${encodeURIComponent(note.id)}`),
      onSuccess,
    }),
  };
}
