import { Anchor, Button, Group, Text } from '@mantine/core';
import type { Case } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import {
  IconArrowsSort,
  IconBrain,
  IconDownload,
  IconInfoCircle,
  IconSearch,
  IconSparkles,
  IconX,
} from '@tabler/icons-react';
import { CompareButton } from '../compare/CompareButton.tsx';
import { useDownloadDrawings } from '../drawings/useDownloadDrawings.ts';

/** Part 1 §2: the anchor to the info panel shows once a case has more images than this. */
const INFO_ANCHOR_AFTER = 5;

interface CaseImagesToolbarProps {
  item: Case;
  imageCount: number;
  selected: ReadonlySet<string>;
  onClearSelection: () => void;
  onSort: () => void;
  onSearch: () => void;
  /** Shown images of all, while a search is applied. */
  searchResult: { shown: number; total: number } | null;
  onClearSearch: () => void;
  /** Absent when the images' AI model is not offered (the group does not predict, or the user declined the agreement). */
  onSetModel?: () => void;
  /** Absent when AI analysis is not offered (capability, group setting, or the user declined the agreement). */
  onStartAnalysis?: () => void;
}

/** The image toolbar of a case: sort, search, drawings download and AI model for the checked images, info anchor. */
export function CaseImagesToolbar(props: CaseImagesToolbarProps) {
  const { t } = useTranslation();
  const drawings = useDownloadDrawings();
  const caps = props.item.userCapabilities;
  const none = props.selected.size === 0;
  return (
    <Group
      justify="space-between"
      gap="xs"
      role="toolbar"
      aria-label={t('caseImages.toolbar.label')}
      data-testid="case-images-toolbar"
    >
      <Group gap="xs">
        <Button
          size="compact-sm"
          variant="default"
          leftSection={<IconArrowsSort size={15} />}
          onClick={props.onSort}
          data-testid="image-sort"
        >
          {t('caseImages.sort.button')}
        </Button>
        <Button
          size="compact-sm"
          variant="default"
          leftSection={<IconSearch size={15} />}
          onClick={props.onSearch}
          data-testid="image-search"
        >
          {t('caseImages.search.button')}
        </Button>
        <CompareButton imageIds={[...props.selected]} />
        {caps.canDownloadDrawings && (
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconDownload size={15} />}
            disabled={none}
            loading={drawings.busy}
            onClick={() => drawings.download([...props.selected])}
            data-testid="case-images-download-drawings"
          >
            {t('drawings.download.button')}
          </Button>
        )}
        {props.onStartAnalysis && (
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconSparkles size={15} />}
            disabled={none}
            onClick={props.onStartAnalysis}
            data-testid="case-images-start-analysis"
          >
            {t('predictions.start.button')}
          </Button>
        )}
        {caps.canEdit && props.onSetModel && (
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconBrain size={15} />}
            disabled={none}
            onClick={props.onSetModel}
            data-testid="case-images-set-model"
          >
            {t('caseImages.model.button')}
          </Button>
        )}
        {!none && (
          <>
            <Text size="xs" c="dimmed" data-testid="case-images-selected">
              {t('caseImages.toolbar.selected', { count: props.selected.size })}
            </Text>
            <Button size="compact-xs" variant="subtle" color="gray" onClick={props.onClearSelection}>
              {t('caseImages.toolbar.clearSelection')}
            </Button>
          </>
        )}
      </Group>
      <Group gap="xs">
        {props.searchResult && (
          <Group gap={4} data-testid="image-search-active">
            <Text size="xs" c="dimmed">
              {t('caseImages.search.active', props.searchResult)}
            </Text>
            <Button size="compact-xs" variant="subtle" leftSection={<IconX size={12} />} onClick={props.onClearSearch}>
              {t('caseImages.search.clear')}
            </Button>
          </Group>
        )}
        {props.imageCount > INFO_ANCHOR_AFTER && (
          <Anchor href="#case-info" size="sm" data-testid="case-info-anchor">
            <Group gap={4}>
              <IconInfoCircle size={15} />
              {t('caseImages.toolbar.infoPanel')}
            </Group>
          </Anchor>
        )}
      </Group>
    </Group>
  );
}
