import {
  Alert,
  Badge,
  Button,
  Code,
  FileButton,
  Group,
  Paper,
  Progress,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconFileSpreadsheet, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CSV_COLUMNS, MAX_CSV_ROWS, type CaseChanges } from './csv-file.ts';
import { useCsvImport, type CsvRecord } from './useCsvImport.ts';

const STATUS_COLOR = { waiting: 'gray', checked: 'blue', updated: 'teal', failed: 'red' } as const;

function shown(value: string | readonly string[] | null | undefined): string {
  const text = Array.isArray(value) ? value.join(', ') : value;
  return typeof text === 'string' && text !== '' ? text : '—';
}

/** The changes a row would make, old → new. */
function Changes({ record }: { record: CsvRecord }) {
  const { t } = useTranslation();
  const entries = Object.entries(record.changes) as [keyof CaseChanges, string | string[] | null][];
  if (entries.length === 0)
    return (
      <Text size="xs" c="dimmed">
        {t('csvImport.noChanges')}
      </Text>
    );
  return (
    <Stack gap={2}>
      {entries.map(([field, value]) => (
        <Text key={field} size="xs">
          <Text span fw={600} size="xs">
            {t(`csvImport.fields.${field}`)}
          </Text>
          {': '}
          {record.current && (
            <>
              <Text span c="dimmed" size="xs" td="line-through">
                {shown(record.current[field])}
              </Text>
              {' → '}
            </>
          )}
          {shown(value)}
        </Text>
      ))}
    </Stack>
  );
}

/** /import-csv (super users): sets case fields from a spreadsheet, row by row, after a preview. */
export function ImportCsvPage() {
  const { t } = useTranslation();
  const flow = useCsvImport();
  const { phase, records } = flow;
  const valid = records.filter((record) => record.previewStatus === 'valid').length;
  const counts = {
    updated: records.filter((record) => record.status === 'updated').length,
    failed: records.filter((record) => record.status === 'failed').length,
    notValid: records.filter((record) => record.previewStatus === 'not-valid').length,
  };
  const total = phase === 'updating' ? valid : records.length;

  return (
    <Stack gap="md" data-testid="import-csv" data-phase={phase}>
      <Title order={1} fz="h2">
        {t('csvImport.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('csvImport.intro', { max: MAX_CSV_ROWS.toLocaleString() })}
      </Text>
      <Text size="xs" c="dimmed">
        {t('csvImport.columns')} <Code>{CSV_COLUMNS.join(', ')}</Code>
      </Text>
      {(phase === 'idle' || phase === 'reading') && (
        <Paper withBorder radius="md" p="xl">
          <Group justify="center">
            <FileButton onChange={(file) => file && flow.load(file)} accept=".csv,text/csv">
              {(props) => (
                <Button
                  {...props}
                  leftSection={<IconUpload size={16} />}
                  loading={phase === 'reading'}
                  data-testid="import-csv-choose"
                >
                  {t('csvImport.choose')}
                </Button>
              )}
            </FileButton>
          </Group>
        </Paper>
      )}
      {flow.problem && (
        <Alert
          color="red"
          icon={<IconAlertCircle size={18} />}
          title={
            flow.problem.parse ? t('files.parseFailed', { filename: flow.problem.filename }) : t('files.loadFailed')
          }
          data-testid="import-csv-problem"
        >
          {flow.problem.parse &&
            t(`csvImport.problem.${flow.problem.parse.key}`, {
              line: flow.problem.parse.line,
              detail: flow.problem.parse.detail ?? '',
            })}
        </Alert>
      )}
      {flow.file && (
        <Group gap="xs">
          <IconFileSpreadsheet size={18} />
          <Text size="sm" fw={500}>
            {flow.file.name}
          </Text>
          <Badge variant="light" color="gray" tt="none">
            {flow.file.encoding}
          </Badge>
          <Text size="sm" c="dimmed">
            {t('csvImport.rows', { count: records.length })}
          </Text>
        </Group>
      )}
      {(phase === 'checking' || phase === 'updating') && (
        <Stack gap={4}>
          <Text size="sm" aria-live="polite">
            {t(`csvImport.progress.${phase}`, { done: flow.done, total })}
          </Text>
          <Progress value={total === 0 ? 0 : (100 * flow.done) / total} animated data-testid="import-csv-progress" />
        </Stack>
      )}
      {phase === 'previewing' && (
        <Group>
          <Button variant="default" onClick={flow.reset} data-testid="import-csv-back">
            {t('csvImport.back')}
          </Button>
          <Button disabled={valid === 0} onClick={flow.update} data-testid="import-csv-run">
            {t('csvImport.run', { count: valid })}
          </Button>
        </Group>
      )}
      {phase === 'done' && (
        <Alert
          color={counts.failed > 0 ? 'yellow' : 'teal'}
          title={t('csvImport.doneTitle')}
          data-testid="import-csv-summary"
        >
          <Group justify="space-between">
            <Text size="sm">{t('csvImport.summary', counts)}</Text>
            <Button size="xs" variant="default" onClick={flow.reset} data-testid="import-csv-reset">
              {t('csvImport.reset')}
            </Button>
          </Group>
        </Alert>
      )}
      {records.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped verticalSpacing={6} data-testid="import-csv-records">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('csvImport.table.line')}</Table.Th>
                <Table.Th>{t('csvImport.table.caseNumber')}</Table.Th>
                <Table.Th>{t('csvImport.table.status')}</Table.Th>
                <Table.Th>{t('csvImport.table.preview')}</Table.Th>
                <Table.Th>{t('csvImport.table.changes')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {records.map((record) => (
                <Table.Tr
                  key={record.line}
                  data-testid="import-csv-record"
                  data-status={record.status}
                  data-preview={record.previewStatus ?? ''}
                  data-error-type={record.errorType ?? ''}
                >
                  <Table.Td>{record.line}</Table.Td>
                  <Table.Td ff="monospace">{record.caseNumber}</Table.Td>
                  <Table.Td>
                    <Badge size="sm" variant="light" color={STATUS_COLOR[record.status]}>
                      {t(`csvImport.status.${record.status}`)}
                    </Badge>
                    {record.failure && (
                      <Text size="xs" c="red">
                        {record.failure}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {record.previewStatus && (
                      <Badge
                        size="sm"
                        variant="outline"
                        tt="none"
                        color={record.previewStatus === 'valid' ? 'teal' : 'red'}
                      >
                        {record.errorType ? t(`csvImport.errorTypes.${record.errorType}`) : t('csvImport.valid')}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Changes record={record} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
