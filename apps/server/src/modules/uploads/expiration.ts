/** Unfinished uploads are kept this long after their creation, then swept. */
export const TUS_UPLOAD_EXPIRATION_MS = 24 * 60 * 60 * 1000;
