/**
 * True for the errors browsers and Vite raise when a code-split chunk of the app cannot be loaded — usually because
 * a new deployment replaced the files this page was built against. Reloading fetches the new build.
 */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ChunkLoadError') return true;
  return CHUNK_ERROR_MESSAGES.some((pattern) => pattern.test(error.message));
}

const CHUNK_ERROR_MESSAGES = [
  // Chromium
  /Failed to fetch dynamically imported module/i,
  // Firefox
  /error loading dynamically imported module/i,
  // Safari
  /Importing a module script failed/i,
  // Vite's preload helper
  /Unable to preload CSS/i,
  /Loading (CSS )?chunk [\w-]+ failed/i,
];
