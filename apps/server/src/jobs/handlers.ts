import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { recountStorageUsage } from '../modules/organizations/storage-usage.service.ts';
import type { JobHandlers } from './job-queue.ts';
import type { QueuePayloads } from './queues.ts';

/** The worker's handler of every queue; each calls one service function. */
export function createJobHandlers(deps: { db: Db; log: Logger }): JobHandlers<QueuePayloads> {
  return {
    'storage-usage': async ({ organizationId }) => {
      const found = await recountStorageUsage(deps.db, organizationId);
      if (!found) deps.log.info({ organizationId }, 'storage recount skipped: group was deleted');
    },
  };
}
