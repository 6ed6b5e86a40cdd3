import { EmptyState } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconPaperclip, IconPhoto } from '../../components/icons/case-icons.tsx';

/** Images and attachments get their own screens in later issues; until then the tab says so and gives the count. */
export function ComingSoonTab({ kind, count }: { kind: 'images' | 'attachments'; count: number }) {
  const { t } = useTranslation();
  return (
    <EmptyState
      variant="light"
      py="xl"
      icon={kind === 'images' ? <IconPhoto size={28} /> : <IconPaperclip size={28} />}
      title={t(`caseDetail.${kind}.count`, { count })}
      description={t(`caseDetail.${kind}.later`)}
      data-testid={`case-${kind}-empty`}
    />
  );
}
