import { z } from 'zod';

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
});
export type AuthConfig = z.infer<typeof AuthConfigSchema>;
