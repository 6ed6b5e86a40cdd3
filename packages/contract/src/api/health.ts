import { z } from 'zod';

export const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  /** The server's version; only to a signed-in caller, as are the queue sizes and error texts. */
  version: z.string().optional(),
  role: z.enum(['api', 'worker', 'all']),
  database: z.object({ ok: z.boolean(), latencyMs: z.number().optional(), error: z.string().optional() }),
  queue: z.object({
    ok: z.boolean(),
    /** Jobs waiting or running per queue; absent when the queue cannot be read. */
    queues: z.record(z.string(), z.object({ queued: z.number(), active: z.number(), failed: z.number() })).optional(),
    error: z.string().optional(),
  }),
});
export type Health = z.infer<typeof HealthSchema>;

/** Answer of the liveness and readiness probes (`/health/live`, `/health/ready`). */
export const ProbeSchema = z.object({
  /** `starting`: migrations or the queue not up yet; `draining`: shutting down, no new work. */
  status: z.enum(['ok', 'starting', 'draining', 'degraded']),
});
export type Probe = z.infer<typeof ProbeSchema>;
