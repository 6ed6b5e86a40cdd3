import { Autocomplete } from '@mantine/core';
import type { Membership } from '@pathology/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUpdateMember } from './users.queries.ts';

/** A member's team, typed or picked from the group's teams; saved when the field is left or Enter is pressed. */
export function TeamCell({
  organizationId,
  member,
  teams,
  disabled,
}: {
  organizationId: string;
  member: Membership;
  teams: readonly string[];
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState(member.team ?? '');
  const update = useUpdateMember(organizationId);
  const commit = () => {
    const team = value.trim() === '' ? null : value.trim();
    if (team !== member.team) update.mutate({ email: member.email, changes: { team } });
  };
  return (
    <Autocomplete
      size="xs"
      w={150}
      data={[...teams]}
      value={value}
      onChange={setValue}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
      placeholder={t('users.noTeam')}
      disabled={disabled || update.isPending}
      error={update.isError}
      aria-label={t('users.teamOf', { email: member.email })}
      data-testid="users-team"
    />
  );
}
