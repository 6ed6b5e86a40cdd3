import { LABEL_COLORS, parseLabelName, PRIVATE_LABEL_ICON, PUBLIC_LABEL_ICONS } from '@pathology/contract';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

const COLOR_KEYS = {
  '#000000': 'black',
  '#8B0000': 'darkRed',
  '#FFD700': 'gold',
  '#0000FF': 'blue',
} as const satisfies Record<(typeof LABEL_COLORS)[number], string>;

function isColor(color: string): color is keyof typeof COLOR_KEYS {
  return Object.hasOwn(COLOR_KEYS, color);
}

function isPublicIcon(icon: string): icon is (typeof PUBLIC_LABEL_ICONS)[number] {
  return (PUBLIC_LABEL_ICONS as readonly string[]).includes(icon);
}

/** A label's accessible name in the user's language, e.g. "Microscope (blue)". */
export function useLabelText(): (labelName: string) => string {
  const { t } = useTranslation();
  return useCallback(
    (labelName: string) => {
      const parsed = parseLabelName(labelName);
      if (!parsed) return labelName;
      if (parsed.icon === PRIVATE_LABEL_ICON) return t('caseList.labels.starred');
      const icon = isPublicIcon(parsed.icon) ? t(`caseList.labels.icons.${parsed.icon}`) : parsed.icon;
      const color = isColor(parsed.color) ? t(`caseList.labels.colors.${COLOR_KEYS[parsed.color]}`) : parsed.color;
      return t('caseList.labels.iconWithColor', { icon, color });
    },
    [t],
  );
}
