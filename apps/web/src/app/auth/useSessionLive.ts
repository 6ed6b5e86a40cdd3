import { useEffect, useState } from 'react';
import { useUserManager } from './user-manager-context.ts';

/**
 * False from the moment the access token runs out without a renewal until a user is loaded again:
 * background polling stops meanwhile, so it cannot turn the expired-session notice into a redirect.
 */
export function useSessionLive(): boolean {
  const userManager = useUserManager();
  const [live, setLive] = useState(true);
  useEffect(() => {
    const removeExpired = userManager.events.addAccessTokenExpired(() => setLive(false));
    const removeLoaded = userManager.events.addUserLoaded(() => setLive(true));
    return () => {
      removeExpired();
      removeLoaded();
    };
  }, [userManager]);
  return live;
}
