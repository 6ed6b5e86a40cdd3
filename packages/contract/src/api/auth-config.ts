import { z } from 'zod';

/** The server's CHAOS setting while it is on: chosen routes answer late and sometimes fail (demo database only). */
export const ChaosSettingsSchema = z.object({
  /** Each chosen request waits a random time in this range, in milliseconds. */
  delayMs: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]),
  /** Share of chosen requests answered 503. */
  errorRate: z.number().min(0).max(1),
  /** Paths with `*` for any characters. */
  routes: z.array(z.string()),
});
export type ChaosSettings = z.infer<typeof ChaosSettingsSchema>;

/** GET auth/config (no token): how the web app signs in, so an external provider needs no rebuild. */
export const AuthConfigSchema = z.object({
  authority: z.string(),
  clientId: z.string(),
  scope: z.string(),
  /** RFC 8707 resource to request tokens for, when the provider needs it. */
  resource: z.string().optional(),
  /** Image count of a case at which the upload screens and the case's images warn (MAX_CASE_IMAGES). */
  maxCaseImages: z.number().int().positive(),
  /** The operator's help pages (HELP_URL), opened by the header's help icon; no icon without them. */
  helpUrl: z.string().optional(),
  /** Present while the server delays and fails requests on purpose (CHAOS): the app shows a banner. */
  chaos: ChaosSettingsSchema.optional(),
});
export type AuthConfig = z.infer<typeof AuthConfigSchema>;
