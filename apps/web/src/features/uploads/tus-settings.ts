/**
 * The web client's tus settings, apart from the transport so that the upload benchmark sends what the browser
 * sends.
 *
 * Chunk size: every PATCH costs a round trip, the bearer token's check, the upload's lock and its info file, so
 * small chunks cap the speed (8 MiB chunks reached 0.08× of the disk's speed, issue 30). The server keeps every
 * byte a PATCH wrote even when the connection is cut, and the client resumes from the offset HEAD gives, so a
 * large chunk loses nothing on failure; it must stay under the body limit of proxies in front of the API
 * (nginx's client_max_body_size). Memory is no concern: the browser reads a File slice from disk as it sends it.
 */
export const TUS_CHUNK_SIZE = 256 * 1024 * 1024;

/**
 * Waits before each retry of a failed request: long enough in total (about 40 s) to ride out an API server's
 * restart or a rolling deployment, after which the upload resumes from the server's offset.
 */
export const TUS_RETRY_DELAYS = [1000, 3000, 5000, 10_000, 20_000];

/**
 * Answers worth retrying: none at all (a network failure, a restarting server), a gateway that was busy or found
 * no server, and 423 (another request, maybe on another server, still holds the upload).
 */
export const TUS_RETRY_STATUSES: readonly number[] = [0, 423, 502, 503, 504];
