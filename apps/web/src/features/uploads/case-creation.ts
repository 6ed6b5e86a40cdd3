import { AuthError, HttpError, TimeoutError, UNEXPECTED_ERROR, ValidationError } from '../../api/client.ts';
import { TUS_RETRY_DELAYS, TUS_RETRY_STATUSES } from './tus-settings.ts';
import { createCaseInGroup, lookupCaseNumber } from './uploads.api.ts';

type CreateCase = (caseNumber: string, organizationId: string) => Promise<string>;

/**
 * A failure that may pass on its own, as the file uploads see it (TUS_RETRY_STATUSES): no answer at all (a
 * restarting server, a lost connection, a timeout) or a gateway's 502/503/504.
 */
export function isTransientFailure(error: unknown): boolean {
  if (error instanceof HttpError) return TUS_RETRY_STATUSES.includes(error.status) && error.status !== 423;
  if (error instanceof TimeoutError) return true;
  // The API client's own failure of the transport: a bare Error with the generic message.
  const typed = error instanceof ValidationError || error instanceof AuthError;
  return error instanceof Error && !typed && error.message === UNEXPECTED_ERROR;
}

export interface RetryingCaseCreation {
  create: CreateCase;
  /** The id of the group's case with exactly this number, or null. */
  find: (caseNumber: string, organizationId: string) => Promise<string | null>;
  delays: readonly number[];
  wait: (ms: number) => Promise<void>;
}

const defaults: RetryingCaseCreation = {
  create: createCaseInGroup,
  find: async (caseNumber, organizationId) => (await lookupCaseNumber(organizationId, caseNumber)).exact?.id ?? null,
  delays: TUS_RETRY_DELAYS,
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * POST cases, riding out a restarting server with the waits of the file uploads: the case of a bulk upload's next
 * file is created while the server may be down, and failing it would fail every file of that case. A request that got
 * no answer may still have created the case, so each retry first searches the group for the number and takes a case
 * found there (case numbers are not unique: a second POST would make a second case).
 */
export async function createCaseRetrying(
  caseNumber: string,
  organizationId: string,
  { create, find, delays, wait }: RetryingCaseCreation = defaults,
): Promise<string> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      const found = attempt > 0 ? await find(caseNumber, organizationId) : null;
      return found ?? (await create(caseNumber, organizationId));
    } catch (error) {
      const delay = delays[attempt];
      if (delay === undefined || !isTransientFailure(error)) throw error;
      await wait(delay);
    }
  }
}

/**
 * Creates each new case once, however many files it gets: the first file's upload creates it, the others wait
 * for the same answer (and all fail with its error).
 */
export function caseCreator(organizationId: string, create: CreateCase = createCaseRetrying) {
  const pending = new Map<string, Promise<string>>();
  return (caseNumber: string): Promise<string> => {
    let promise = pending.get(caseNumber);
    if (!promise) {
      promise = create(caseNumber, organizationId);
      pending.set(caseNumber, promise);
    }
    return promise;
  };
}
