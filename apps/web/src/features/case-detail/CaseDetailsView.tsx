import type { Case } from '@pathology/contract';
import { Badge, Button, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Abbreviated } from '../../components/Abbreviated.tsx';
import { useCatalogueName } from '../../i18n/catalogue-names.ts';
import { useAccountRoles } from '../account/account.queries.ts';
import { useOrganizations } from '../organizations/organizations.queries.ts';
import { IconPencil } from '@tabler/icons-react';

function Field({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  const { t } = useTranslation();
  const empty = children == null || children === '' || children === false;
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      <Text
        component="div"
        size="sm"
        c={empty ? 'dimmed' : undefined}
        style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        data-testid={testId}
      >
        {empty ? t('caseDetail.details.empty') : children}
      </Text>
    </Stack>
  );
}

/** Details tab, read mode: every field of the case; Edit when the user may change it. */
export function CaseDetailsView({ item, onEdit }: { item: Case; onEdit: () => void }) {
  const { t } = useTranslation();
  const name = useCatalogueName();
  const roles = useAccountRoles();
  const isSuperUser = roles.data?.checks.isSuperUser === true;
  const organizations = useOrganizations();
  const provider = organizations.data?.data.find((group) => group.id === item.intendedOwnerOrganizationId);

  return (
    <Stack gap="lg" data-testid="case-details">
      <Group justify="space-between" align="center">
        <Title order={3} fz="lg">
          {t('caseDetail.details.title')}
        </Title>
        {item.userCapabilities.canEdit && (
          <Button variant="light" leftSection={<IconPencil size={16} />} onClick={onEdit} data-testid="case-edit">
            {t('caseDetail.details.edit')}
          </Button>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
        <Field label={t('caseDetail.fields.caseNumber')} testId="case-field-caseNumber">
          {item.caseNumber}
        </Field>
        <Field label={t('caseDetail.fields.organ')} testId="case-field-organ">
          {item.organ && name('organs', item.organ)}
        </Field>
        <Field label={t('caseDetail.fields.specimenType')} testId="case-field-specimenType">
          {item.specimenType && t(`caseDetail.specimenTypes.${item.specimenType}`)}
        </Field>
      </SimpleGrid>
      {isSuperUser && (
        <Field label={t('caseDetail.fields.intendedOwnerOrganizationId')} testId="case-field-intendedOwner">
          {provider?.name ?? item.intendedOwnerOrganizationId}
        </Field>
      )}
      <Field label={t('caseDetail.fields.tags')} testId="case-field-tags">
        {item.tags.length > 0 && (
          <Group gap={6}>
            {item.tags.map((tag) => (
              <Badge key={tag} variant="light" color="gray" radius="sm" tt="none" fw={500} maw={320}>
                {tag}
              </Badge>
            ))}
          </Group>
        )}
      </Field>
      <Field label={t('caseDetail.fields.diagnosis')} testId="case-field-diagnosis">
        {item.diagnosis && <Abbreviated text={item.diagnosis} />}
      </Field>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <Field label={t('caseDetail.fields.grossFindings')} testId="case-field-grossFindings">
          {item.grossFindings}
        </Field>
        <Field label={t('caseDetail.fields.microscopicFindings')} testId="case-field-microscopicFindings">
          {item.microscopicFindings}
        </Field>
      </SimpleGrid>
      <Field label={t('caseDetail.fields.comments')} testId="case-field-comments">
        {item.comments}
      </Field>
    </Stack>
  );
}
