import type { Case } from '@pathology/contract';
import { ActionIcon, Anchor, Badge, Button, Group, Menu, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { IconArrowLeft, IconDots, IconInfoCircle, IconTransfer, IconTrash, IconUsersGroup } from '@tabler/icons-react';
import { caseListHref, type CaseNavigation } from '../case-navigation/case-navigation.ts';
import { CaseLabelToggles } from './CaseLabelToggles.tsx';
import { CaseStepper } from './CaseStepper.tsx';
import { TransferCaseDialog } from './TransferCaseDialog.tsx';
import { useDeleteCaseAction } from './useDeleteCaseAction.tsx';

interface CaseDetailHeaderProps {
  item: Case;
  navigation: CaseNavigation | undefined;
  /** The current tab's sub-path, kept when stepping to the previous or next case. */
  subPath: string;
  editing: boolean;
  infoOpen: boolean;
  onToggleInfo: () => void;
}

export function CaseDetailHeader({
  item,
  navigation,
  subPath,
  editing,
  infoOpen,
  onToggleInfo,
}: CaseDetailHeaderProps) {
  const { t } = useTranslation();
  const { search } = useLocation();
  const [transferOpen, transfer] = useDisclosure(false);
  const confirmDelete = useDeleteCaseAction(item, navigation);
  const { canTransfer, canDelete } = item.userCapabilities;
  const backHref = navigation ? caseListHref(navigation.from) : '/cases';
  const detailsHref = `/cases/${encodeURIComponent(item.id)}${search}`;

  return (
    <Paper withBorder radius="lg" p="md" shadow="xs" data-testid="case-detail-header">
      <Group justify="space-between" align="center" wrap="wrap" gap="md">
        <Group gap="md" wrap="nowrap" miw={0}>
          <Tooltip label={t('caseDetail.header.back')}>
            <ActionIcon
              component={Link}
              to={backHref}
              variant="light"
              size="lg"
              radius="md"
              aria-label={t('caseDetail.header.back')}
              data-testid="case-back"
            >
              <IconArrowLeft size={18} />
            </ActionIcon>
          </Tooltip>
          <Stack gap={2} miw={0}>
            <Text size="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: '0.06em' }}>
              {t('caseDetail.header.caseNumber')}
            </Text>
            <Title order={2} fz="h3" lh={1.2}>
              <Anchor component={Link} to={detailsHref} c="inherit" underline="hover" data-testid="case-number">
                {item.caseNumber}
              </Anchor>
            </Title>
            <Group gap="xs" wrap="wrap">
              <Badge
                variant="light"
                radius="sm"
                tt="none"
                fw={500}
                leftSection={<IconUsersGroup size={12} />}
                data-testid="case-group"
              >
                {item.organizationName}
              </Badge>
              <Text size="xs" c="dimmed" visibleFrom="md" data-testid="case-contract">
                {item.contractName}
              </Text>
            </Group>
          </Stack>
        </Group>

        <Group gap="sm" wrap="wrap">
          <CaseLabelToggles item={item} />
          {navigation && <CaseStepper caseId={item.id} navigation={navigation} subPath={subPath} />}
          {canTransfer && (
            <Button
              variant="default"
              leftSection={<IconTransfer size={16} />}
              onClick={transfer.open}
              data-testid="case-transfer"
            >
              {t('caseDetail.transfer.button')}
            </Button>
          )}
          {!editing && canDelete && (
            <Menu position="bottom-end" shadow="md" withinPortal>
              <Menu.Target>
                <ActionIcon
                  variant="default"
                  size="lg"
                  radius="md"
                  aria-label={t('caseDetail.header.options')}
                  data-testid="case-options"
                >
                  <IconDots size={18} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item
                  color="red"
                  leftSection={<IconTrash size={16} />}
                  onClick={confirmDelete}
                  data-testid="case-delete"
                >
                  {t('caseDetail.delete.menu')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          )}
          <Tooltip label={t(infoOpen ? 'caseDetail.header.hideInfo' : 'caseDetail.header.showInfo')}>
            <ActionIcon
              variant={infoOpen ? 'filled' : 'default'}
              size="lg"
              radius="md"
              onClick={onToggleInfo}
              aria-pressed={infoOpen}
              aria-label={t('caseDetail.header.info')}
              data-testid="case-info-toggle"
            >
              <IconInfoCircle size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      {canTransfer && <TransferCaseDialog item={item} opened={transferOpen} onClose={transfer.close} />}
    </Paper>
  );
}
