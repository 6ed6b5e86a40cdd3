import type { Case } from '@pathology/contract';
import { List, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorText } from '../../i18n/error-text.ts';
import { caseListHref, type CaseNavigation } from '../case-navigation/case-navigation.ts';
import { useDeleteCase } from './case-detail.queries.ts';

/**
 * The Delete Case confirmation (spec part 1 §4): it names the images, attachments and comments that go with the
 * case, and then deletes recursively; afterwards the user is back on the case list.
 */
export function useDeleteCaseAction(item: Case, navigation: CaseNavigation | undefined): () => void {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const remove = useDeleteCase(item.id);
  const counts = [
    { key: 'images', count: item.numberOfImages },
    { key: 'attachments', count: item.numberOfAttachments },
    { key: 'comments', count: item.numberOfComments },
  ] as const;
  const contents = counts.filter(({ count }) => count > 0);

  const run = () => {
    remove.mutate(contents.length > 0, {
      onSuccess: () => {
        notifications.show({ color: 'teal', message: t('caseDetail.delete.done') });
        void navigate(navigation ? caseListHref({ ...navigation.from, page: 1 }) : '/cases');
      },
      onError: (error) => {
        notifications.show({ color: 'red', title: t('caseDetail.delete.failed'), message: errorText(error, t) });
      },
    });
  };

  return () =>
    modals.openConfirmModal({
      title: t('caseDetail.delete.title', { caseNumber: item.caseNumber }),
      centered: true,
      children: (
        <Stack gap="xs" data-testid="case-delete-dialog">
          <Text size="sm">{t('caseDetail.delete.question')}</Text>
          {contents.length > 0 && (
            <>
              <Text size="sm" fw={600} c="red">
                {t('caseDetail.delete.contents')}
              </Text>
              <List size="sm" data-testid="case-delete-contents">
                {contents.map(({ key, count }) => (
                  <List.Item key={key}>{t(`caseDetail.delete.counts.${key}`, { count })}</List.Item>
                ))}
              </List>
            </>
          )}
        </Stack>
      ),
      labels: { confirm: t('caseDetail.delete.confirm'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'case-delete-confirm' },
      onConfirm: run,
    });
}
