import { Box } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { IconPhoto } from '../../components/icons/case-icons.tsx';

const OBSERVER_OPTIONS: IntersectionObserverInit = { threshold: 0.01, rootMargin: '50px' };

/**
 * A slide thumbnail that loads only once it scrolls into view. There is no thumbnail endpoint yet, so without `src`
 * it stays a neutral slide placeholder; the lazy structure is ready for when images carry one.
 */
export function ImageThumbnail({
  src,
  alt,
  width = 56,
  height = 40,
}: {
  src?: string;
  alt: string;
  width?: number;
  height?: number;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    const element = ref.current;
    if (!element || visible) return;
    if (typeof IntersectionObserver === 'undefined') {
      setVisible(true);
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        setVisible(true);
        observer.disconnect();
      }
    }, OBSERVER_OPTIONS);
    observer.observe(element);
    return () => observer.disconnect();
  }, [visible]);

  return (
    <Box
      ref={ref}
      w={width}
      h={height}
      style={{
        borderRadius: 4,
        border: '1px solid var(--mantine-color-default-border)',
        background: 'var(--mantine-color-gray-0)',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        overflow: 'hidden',
        flex: 'none',
      }}
      data-testid="image-thumbnail"
      data-visible={visible}
    >
      {visible && src ? (
        <img src={src} alt={alt} loading="lazy" style={{ width: '100%', height: '100%', objectFit: 'cover' }} />
      ) : (
        <IconPhoto size={18} color="var(--mantine-color-gray-5)" role="img" aria-label={alt} />
      )}
    </Box>
  );
}
