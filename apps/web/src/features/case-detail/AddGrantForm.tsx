import {
  CreateCaseGrantRequestSchema,
  GROUP_ROLES,
  MESSAGES,
  type GranteeType,
  type GroupRole,
} from '@pathology/contract';
import { Button, Group, Paper, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ValidationError } from '../../api/client.ts';
import { errorText } from '../../i18n/error-text.ts';
import { isPickerSearchable } from '../organizations/current-organization.ts';
import { useOrganizations } from '../organizations/organizations.queries.ts';
import { useAddGrant } from './case-detail.queries.ts';
import { IconPlus } from '@tabler/icons-react';
import { fieldErrorText } from './field-error-text.ts';

interface AddGrantFormProps {
  caseId: string;
  roleOptions: { value: GroupRole; label: string }[];
  onAdded: () => void;
}

function isRole(value: string | null): value is GroupRole {
  return GROUP_ROLES.some((role) => role === value);
}

/** Gives an account (by e-mail) or a group a role on the case. */
export function AddGrantForm({ caseId, roleOptions, onAdded }: AddGrantFormProps) {
  const { t } = useTranslation();
  const organizations = useOrganizations();
  const add = useAddGrant(caseId);
  const [granteeType, setGranteeType] = useState<GranteeType>('account');
  const [granteeId, setGranteeId] = useState('');
  const [role, setRole] = useState<GroupRole>('read_only');
  const [error, setError] = useState<string | undefined>(undefined);

  const groups = (organizations.data?.data ?? []).map((group) => ({ value: group.id, label: group.name }));
  const request = { granteeType, granteeId, grantedRole: role };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = CreateCaseGrantRequestSchema.safeParse(request);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? MESSAGES.fieldRequired);
      return;
    }
    add.mutate(checked.data, {
      onSuccess: () => {
        setGranteeId('');
        setError(undefined);
        onAdded();
      },
      onError: (failure) => {
        if (failure instanceof ValidationError) {
          setError(failure.errors.granteeId ?? Object.values(failure.errors)[0] ?? failure.message);
        } else {
          notifications.show({
            color: 'red',
            title: t('caseDetail.permissions.failed'),
            message: errorText(failure, t),
          });
        }
      },
    });
  };

  const granteeError = fieldErrorText(error, t);
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      bg="gray.0"
      component="form"
      onSubmit={submit}
      noValidate
      data-testid="case-grant-form"
    >
      <Stack gap="sm">
        <Group justify="space-between" gap="sm">
          <Text fw={600} size="sm">
            {t('caseDetail.permissions.add')}
          </Text>
          <SegmentedControl
            size="xs"
            value={granteeType}
            onChange={(value) => {
              setGranteeType(value === 'organization' ? 'organization' : 'account');
              setGranteeId('');
              setError(undefined);
            }}
            data={[
              { value: 'account', label: t('caseDetail.permissions.byEmail') },
              { value: 'organization', label: t('caseDetail.permissions.byGroup') },
            ]}
            data-testid="case-grant-type"
          />
        </Group>
        <Group align="flex-start" gap="sm" wrap="wrap">
          {granteeType === 'account' ? (
            <TextInput
              type="email"
              label={t('caseDetail.permissions.email')}
              placeholder="name@example.org"
              value={granteeId}
              onChange={(event) => {
                setGranteeId(event.currentTarget.value);
                setError(undefined);
              }}
              error={granteeError}
              style={{ flex: 1, minWidth: 240 }}
              data-testid="case-grant-email"
            />
          ) : (
            <Select
              label={t('caseDetail.permissions.groupLabel')}
              placeholder={t('caseDetail.create.chooseGroup')}
              data={groups}
              value={granteeId === '' ? null : granteeId}
              onChange={(value) => {
                setGranteeId(value ?? '');
                setError(undefined);
              }}
              searchable={isPickerSearchable(groups.length)}
              allowDeselect={false}
              nothingFoundMessage={t('caseDetail.nothingFound')}
              error={granteeError}
              style={{ flex: 1, minWidth: 240 }}
              data-testid="case-grant-group"
            />
          )}
          <Select
            label={t('caseDetail.permissions.role')}
            data={roleOptions}
            value={role}
            onChange={(value) => isRole(value) && setRole(value)}
            allowDeselect={false}
            w={180}
            data-testid="case-grant-new-role"
          />
          <Button
            type="submit"
            mt={25}
            leftSection={<IconPlus size={16} />}
            loading={add.isPending}
            data-testid="case-grant-add"
          >
            {t('caseDetail.permissions.addButton')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
