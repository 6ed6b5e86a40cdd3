import type { UserManager } from 'oidc-client-ts';
import { createContext, useContext } from 'react';

/** The page's one UserManager, for the few places that need more than react-oidc-context's `useAuth`. */
export const UserManagerContext = createContext<UserManager | undefined>(undefined);

export function useUserManager(): UserManager {
  const userManager = useContext(UserManagerContext);
  if (!userManager) throw new Error('useUserManager must be used inside the signed-in app');
  return userManager;
}
