/** Socket errors of a PostgreSQL that is down or restarting. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);
/**
 * SQLSTATEs of a server going away: connection exceptions (class 08) and operator intervention
 * (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now — still starting up).
 */
const SQLSTATE = /^(08|57P0[123])/;
/** node-postgres' own words when the socket dies mid-query or a pooled connect times out. */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
];

/** Seconds a client should wait before trying again while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Whether an error (or one of its causes: Drizzle wraps the driver's) means the database cannot be reached. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (DRIVER_MESSAGES.some((text) => current instanceof Error && current.message.startsWith(text))) return true;
    current = current.cause;
  }
  return false;
}
