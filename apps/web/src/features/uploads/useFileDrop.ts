import { useCallback, useRef, useState, type DragEvent } from 'react';

/** Drag-and-drop handlers for a drop zone, plus a hidden file input that a button can open. */
export function useFileDrop(onFiles: (files: File[]) => void, disabled = false) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  // dragenter/dragleave fire for every child; count them so the highlight does not flicker.
  const depth = useRef(0);

  const open = useCallback(() => {
    if (!disabled) inputRef.current?.click();
  }, [disabled]);

  const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');

  const zoneProps = {
    onDragEnter: (event: DragEvent) => {
      if (disabled || !hasFiles(event)) return;
      event.preventDefault();
      depth.current++;
      setDragging(true);
    },
    onDragOver: (event: DragEvent) => {
      if (disabled || !hasFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: () => {
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop: (event: DragEvent) => {
      if (disabled || !hasFiles(event)) return;
      event.preventDefault();
      depth.current = 0;
      setDragging(false);
      onFiles(Array.from(event.dataTransfer.files));
    },
  };

  const inputProps = {
    ref: inputRef,
    type: 'file' as const,
    multiple: true,
    hidden: true,
    disabled,
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const files = Array.from(event.currentTarget.files ?? []);
      // Cleared, so choosing the same file again still fires change.
      event.currentTarget.value = '';
      if (files.length > 0) onFiles(files);
    },
  };

  return { open, dragging, zoneProps, inputProps };
}
