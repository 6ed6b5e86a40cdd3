import { z } from 'zod';

/** GET auth/config (no token): how the web app signs in, so an external provider needs no rebuild. */
export const AuthConfigSchema = z.object({
  authority: z.string(),
  clientId: z.string(),
  scope: z.string(),
  /** RFC 8707 resource to request tokens for, when the provider needs it. */
  resource: z.string().optional(),
});
export type AuthConfig = z.infer<typeof AuthConfigSchema>;
