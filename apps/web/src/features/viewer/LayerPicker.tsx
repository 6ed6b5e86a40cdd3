import { Select, Text } from '@mantine/core';
import type { ImageLayerResource } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import { layerName, sortLayers } from './layers.ts';

interface LayerPickerProps {
  layers: readonly ImageLayerResource[];
  value: string | undefined;
  onChange: (layerId: string) => void;
  /** Small and narrow: the classic viewer's floating picker. */
  compact?: boolean;
}

/** The layer of a multi-layer image ('5 layers : layer 3 (z = 2 µm)'); a one-layer image just says 'single-layer'. */
export function LayerPicker({ layers, value, onChange, compact }: LayerPickerProps) {
  const { t } = useTranslation();
  const current = layers.find((layer) => layer.id === value);
  if (layers.length <= 1) {
    return (
      <Text size="sm" data-testid="layer-name">
        {current ? layerName(layers, current) : 'single-layer'}
      </Text>
    );
  }
  return (
    <Select
      aria-label={t('viewer.layers.label')}
      size={compact ? 'xs' : 'sm'}
      w={compact ? 260 : undefined}
      allowDeselect={false}
      checkIconPosition="right"
      data={sortLayers(layers).map((layer) => ({ value: layer.id, label: layerName(layers, layer) }))}
      value={value ?? null}
      onChange={(next) => next && onChange(next)}
      data-testid="layer-picker"
    />
  );
}
