import { Group, Pagination, Select, Text } from '@mantine/core';
import { PAGE_SIZE_OPTIONS } from '@pathology/contract';
import { useTranslation } from 'react-i18next';

/** Part 1 §9: the pager shows only when there are more than 10 cases; page sizes 10, 20, 50, 100. */
export const PAGER_THRESHOLD = 10;

export function CaseListPager({
  total,
  page,
  limit,
  onPage,
  onLimit,
}: {
  total: number;
  page: number;
  limit: number;
  onPage: (page: number) => void;
  onLimit: (limit: (typeof PAGE_SIZE_OPTIONS)[number]) => void;
}) {
  const { t } = useTranslation();
  if (total <= PAGER_THRESHOLD) return null;
  return (
    <Group justify="flex-end" gap="md" data-testid="case-list-pager">
      <Group gap={6}>
        <Text size="xs" c="dimmed">
          {t('caseList.pager.pageSize')}
        </Text>
        <Select
          size="xs"
          w={76}
          aria-label={t('caseList.pager.pageSize')}
          data={PAGE_SIZE_OPTIONS.map(String)}
          value={String(limit)}
          allowDeselect={false}
          onChange={(value) => {
            const size = PAGE_SIZE_OPTIONS.find((option) => String(option) === value);
            if (size) onLimit(size);
          }}
          data-testid="page-size"
        />
      </Group>
      <Pagination
        size="sm"
        total={Math.max(1, Math.ceil(total / limit))}
        value={page}
        onChange={onPage}
        siblings={1}
        getControlProps={(control) => ({ 'aria-label': `${t('caseList.pager.label')} ${control}` })}
        data-testid="case-list-pagination"
      />
    </Group>
  );
}
