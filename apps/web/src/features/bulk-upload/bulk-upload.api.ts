import { BatchParseResponseSchema, type BatchParseRequest, type BatchParseResponse } from '@pathology/contract';
import { api } from '../../api/client.ts';

/** POST batch/parse: the case number, case and duplicate flag of each filename in the group. */
export function parseBatch(request: BatchParseRequest): Promise<BatchParseResponse> {
  return api.post('/batch/parse', request, { schema: BatchParseResponseSchema });
}
