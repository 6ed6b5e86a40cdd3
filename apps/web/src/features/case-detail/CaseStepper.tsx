import { ActionIcon, Group, Loader, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { caseDetailHref, type CaseNavigation } from '../case-navigation/case-navigation.ts';
import { stepNavigation } from './case-neighbours.ts';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useCaseNeighbours } from './useCaseNeighbours.ts';

interface CaseStepperProps {
  caseId: string;
  navigation: CaseNavigation;
  subPath: string;
}

/** Previous / next case of the list search, with the position ("12 / 57"); the tab is kept. */
export function CaseStepper({ caseId, navigation, subPath }: CaseStepperProps) {
  const { t } = useTranslation();
  const { prev, next, loading } = useCaseNeighbours(navigation);
  // The edit form belongs to one case: stepping away shows the neighbour's details.
  const keptPath = subPath === '/edit' ? '' : subPath;
  const href = (id: string, step: -1 | 1) => caseDetailHref(id, stepNavigation(navigation, caseId, step), keptPath);

  const button = (id: string | undefined, step: -1 | 1) => {
    const label = t(step === -1 ? 'caseDetail.navigation.previous' : 'caseDetail.navigation.next');
    const icon = step === -1 ? <IconChevronLeft size={18} /> : <IconChevronRight size={18} />;
    return (
      <Tooltip label={label}>
        {id ? (
          <ActionIcon
            component={Link}
            to={href(id, step)}
            variant="default"
            size="lg"
            radius="md"
            aria-label={label}
            data-testid={step === -1 ? 'case-previous' : 'case-next'}
          >
            {icon}
          </ActionIcon>
        ) : (
          <ActionIcon
            variant="default"
            size="lg"
            radius="md"
            disabled
            aria-label={label}
            data-testid={step === -1 ? 'case-previous' : 'case-next'}
          >
            {loading ? <Loader size={14} /> : icon}
          </ActionIcon>
        )}
      </Tooltip>
    );
  };

  return (
    <Group gap={6} wrap="nowrap" data-testid="case-stepper">
      {button(prev, -1)}
      <Text size="sm" c="dimmed" miw={64} ta="center" data-testid="case-position">
        {t('caseDetail.navigation.position', { position: navigation.index + 1, total: navigation.total })}
      </Text>
      {button(next, 1)}
    </Group>
  );
}
