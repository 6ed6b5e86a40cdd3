import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** The switch between the notice list and the mention list (part 3 §2). */
export function NoticesSwitch({ value }: { value: 'notices' | 'mentions' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <SegmentedControl
      value={value}
      onChange={(next) => void navigate(`/${next}`)}
      data={[
        { value: 'notices', label: t('notices.switch.notices') },
        { value: 'mentions', label: t('notices.switch.mentions') },
      ]}
      data-testid="notices-switch"
    />
  );
}
