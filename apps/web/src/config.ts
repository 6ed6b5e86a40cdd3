/** Deployment-wide constants of the web app, in one place. */

/** Written into the build by the Vite plugin in vite.config.ts; polled by the update checker. */
export const BUILD_META_URL = '/meta.json';

/** Spec part 3 §9: check for a new build every 60 s (doubling after each Ignore). */
export const UPDATE_CHECK_INTERVAL_MS = 60_000;
