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
 * Waits before each retry of a failed request, after which the upload resumes from the server's offset: quickly at
 * first (a dropped connection), then every 10 s for over 3 minutes in all, enough to ride out a restart of the server
 * (25–45 s on a busy 2-core machine with the embedded PostgreSQL, more after a crash or for a deployment that
 * migrates). A lab leaves a day's slides uploading unattended, and giving up early would leave them failed; the row
 * says it is waiting meanwhile. The waits stop growing at 10 s, so an upload goes on at most 10 s after the server is
 * back: a refused connection costs the server nothing, and a 503 while it drains is one small request per file.
 * The same waits serve the case creation before a bulk upload's file (case-creation.ts).
 */
export const TUS_RETRY_DELAYS: readonly number[] = [1000, 2000, 4000, 8000, ...Array<number>(17).fill(10_000)];

/**
 * Answers worth retrying: none at all (a network failure, a restarting server), a gateway that was busy or found
 * no server, and 423 (another request, maybe on another server, still holds the upload).
 */
export const TUS_RETRY_STATUSES: readonly number[] = [0, 423, 502, 503, 504];

/**
 * Whether a failed tus request is worth trying again: TUS_RETRY_STATUSES, and a 409 to a PATCH. That 409 says the
 * upload is no longer at the offset the PATCH began from: an earlier PATCH was stored though its answer was lost (its
 * API process killed, a gateway's 502), and the retry asks HEAD for the offset and goes on from there, as
 * tus-js-client's own default does. A 409 to the upload's creation is a duplicate file, which no retry changes.
 */
export function tusMayRetry(status: number, method: string | undefined): boolean {
  return TUS_RETRY_STATUSES.includes(status) || (status === 409 && method === 'PATCH');
}
