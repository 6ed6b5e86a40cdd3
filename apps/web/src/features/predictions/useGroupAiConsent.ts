import { useOrganizations } from '../organizations/organizations.queries.ts';
import { useAiConsent, type AiConsentState, type AiGroup } from './ai-consent.ts';

/**
 * The AI agreement state for a case's owner group. A group outside the caller's list (a super user
 * looking in) is asked about like any predicting group: the server's capabilities decide the rest.
 */
export function useGroupAiConsent(organizationId: string | undefined): AiConsentState & { group: AiGroup | undefined } {
  const organizations = useOrganizations();
  const found = organizations.data?.data.find((organization) => organization.id === organizationId);
  const group =
    organizations.isPending || organizationId === undefined
      ? undefined
      : (found ?? { predictionEnabled: true, aiAgreementSkipped: false });
  return { ...useAiConsent(group), group };
}
