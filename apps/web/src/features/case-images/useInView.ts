import { useCallback, useEffect, useState } from 'react';
import { THUMBNAIL_DEBOUNCE_MS, THUMBNAIL_OBSERVER_OPTIONS } from './thumbnail-loader.ts';

/**
 * True once the element has stayed in (or near) the viewport for the debounce time; it then stays true. Scrolling
 * quickly past a long list therefore starts no loads. Without IntersectionObserver (old browsers, tests) it is true.
 */
export function useInView<T extends Element>(): [(element: T | null) => void, boolean] {
  const [element, setElement] = useState<T | null>(null);
  const [inView, setInView] = useState(() => typeof IntersectionObserver === 'undefined');
  const ref = useCallback((node: T | null) => setElement(node), []);

  useEffect(() => {
    if (!element || inView) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver((entries) => {
      const visible = entries.some((entry) => entry.isIntersecting);
      clearTimeout(timer);
      timer = visible ? setTimeout(() => setInView(true), THUMBNAIL_DEBOUNCE_MS) : undefined;
    }, THUMBNAIL_OBSERVER_OPTIONS);
    observer.observe(element);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
    };
  }, [element, inView]);

  return [ref, inView];
}
