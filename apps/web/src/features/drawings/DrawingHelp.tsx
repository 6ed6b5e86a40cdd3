import { ActionIcon, Kbd, Popover, Stack, Table, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconKeyboard } from '@tabler/icons-react';
import { TOOL_KEYS } from './drawing-shortcuts.ts';

/** The drawing shortcuts, one click away from the tools; inside another dropdown, not portalled (a click in it would close that one). */
export function DrawingHelp({ withinPortal = true }: { withinPortal?: boolean }) {
  const { t } = useTranslation();
  const toolKeys = Object.entries(TOOL_KEYS).filter(([tool]) => tool !== 'select');
  const rows: [string, string][] = [
    [TOOL_KEYS.select, t('drawings.help.select')],
    ['Enter', t('drawings.help.finishPolygon')],
    ['Esc', t('drawings.help.cancel')],
    ['Delete', t('drawings.help.delete')],
    ['Ctrl+Z', t('drawings.help.undo')],
    ['Ctrl+Y', t('drawings.help.redo')],
    ['Ctrl+S', t('drawings.help.save')],
    ['H', t('drawings.help.toggle')],
  ];
  return (
    <Popover width={340} shadow="md" withArrow position="bottom-end" withinPortal={withinPortal}>
      <Popover.Target>
        <Tooltip label={t('drawings.help.title')} withArrow>
          <ActionIcon variant="subtle" color="dark" aria-label={t('drawings.help.title')} data-testid="drawing-help">
            <IconKeyboard size={18} />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown data-testid="drawing-help-popover">
        <Stack gap={6}>
          <Text fw={600} size="sm">
            {t('drawings.help.title')}
          </Text>
          <Table withRowBorders={false} verticalSpacing={2}>
            <Table.Tbody>
              {toolKeys.map(([tool, key]) => (
                <Table.Tr key={tool}>
                  <Table.Td w={80}>
                    <Kbd size="xs">{key}</Kbd>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs">{t(`drawings.tools.${tool as keyof typeof TOOL_KEYS}`)}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
              {rows.map(([key, label]) => (
                <Table.Tr key={key}>
                  <Table.Td>
                    <Kbd size="xs">{key}</Kbd>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs">{label}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
