import { ColorSwatch, Group, Paper, Stack, Text } from '@mantine/core';
import type { DetectionClass, DetectionObject } from '@pathology/contract';
import { useTranslation } from 'react-i18next';

/** At most this many measurements are listed; QuPath writes dozens per cell. */
const SHOWN_MEASUREMENTS = 10;

/** QuPath writes measurements as an object of name → value, older versions as a list of { name, value }. */
function measurementRows(measurements: unknown): [string, string][] {
  const format = (value: unknown) =>
    typeof value === 'number' ? String(Math.round(value * 1000) / 1000) : String(value);
  if (Array.isArray(measurements)) {
    return measurements
      .filter(
        (item): item is { name: string; value: unknown } => typeof item === 'object' && item !== null && 'name' in item,
      )
      .map((item) => [item.name, format(item.value)]);
  }
  if (typeof measurements === 'object' && measurements !== null) {
    return Object.entries(measurements).map(([name, value]) => [name, format(value)]);
  }
  return [];
}

/** The class and measurements of the detection under the pointer, beside it. */
export function DetectionInfo({
  object,
  kind,
  at,
}: {
  object: DetectionObject;
  kind: DetectionClass | undefined;
  at: { x: number; y: number };
}) {
  const { t } = useTranslation();
  const rows = measurementRows(object.measurements).slice(0, SHOWN_MEASUREMENTS);
  return (
    <Paper
      shadow="md"
      radius="sm"
      p={8}
      pos="absolute"
      left={at.x + 14}
      top={at.y + 14}
      maw={280}
      style={{ zIndex: 3, pointerEvents: 'none' }}
      data-testid="detection-info"
    >
      <Stack gap={2}>
        <Group gap={6} wrap="nowrap">
          {kind && <ColorSwatch color={kind.color} size={12} />}
          <Text size="sm" fw={600}>
            {kind?.name ?? t('detections.object')}
          </Text>
        </Group>
        {rows.map(([name, value]) => (
          <Group key={name} justify="space-between" gap={12} wrap="nowrap">
            <Text size="xs" c="dimmed" truncate>
              {name}
            </Text>
            <Text size="xs">{value}</Text>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
