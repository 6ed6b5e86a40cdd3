/** Product version of the spec (part 1 §9); the web shows the same. */
export const APP_VERSION = '0.30.0';
