import { Paper, Skeleton, Table } from '@mantine/core';
import type { CaseSearchResponse } from '@pathology/contract';
import { useState } from 'react';
import { caseDetailHref } from '../case-navigation/case-navigation.ts';
import type { CaseListSearch } from '../case-navigation/list-search.ts';
import { useLabelChange, type CaseListSetting } from './case-list.queries.ts';
import { CaseRow } from './CaseRow.tsx';
import { CaseTableHeader, columnCount } from './CaseTableHeader.tsx';

export interface CaseTableProps {
  /** The search as sent, carried by every case link so the detail can move between results. */
  search: CaseListSearch;
  data: CaseSearchResponse | undefined;
  loading: boolean;
  setting: CaseListSetting;
  caseNumberFilter: string;
  onCaseNumberFilter: (text: string) => void;
  onSort: (field: 'caseNumber' | 'createdAt') => void;
  selected: ReadonlySet<string>;
  onSelect: (imageIds: string[], checked: boolean) => void;
}

/** The case table: a dense, sortable list whose rows expand to their images. */
export function CaseTable({ search, data, loading, setting, selected, onSelect, ...header }: CaseTableProps) {
  const labelChange = useLabelChange();
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const rows = data?.data ?? [];
  const pageImages = rows.flatMap((item) =>
    item.images.filter((image) => image.status === 'available').map((image) => image.id),
  );
  const selectedOnPage = pageImages.filter((id) => selected.has(id)).length;
  const toggle = (caseId: string) =>
    setExpanded((previous) => {
      const next = new Set(previous);
      if (!next.delete(caseId)) next.add(caseId);
      return next;
    });

  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={900}>
        <Table
          verticalSpacing={6}
          horizontalSpacing="xs"
          highlightOnHover
          striped={false}
          fz="sm"
          data-testid="case-table"
          aria-busy={loading}
        >
          <CaseTableHeader
            search={search}
            setting={setting}
            allSelected={pageImages.length > 0 && selectedOnPage === pageImages.length}
            someSelected={selectedOnPage > 0}
            onSelectAll={(checked) => onSelect(pageImages, checked)}
            {...header}
          />
          <Table.Tbody>
            {loading && rows.length === 0
              ? Array.from({ length: Math.min(search.limit, 10) }, (_, index) => (
                  <Table.Tr key={index} data-testid="case-row-skeleton">
                    <Table.Td colSpan={columnCount(setting)}>
                      <Skeleton height={22} radius="sm" />
                    </Table.Td>
                  </Table.Tr>
                ))
              : rows.map((item, index) => (
                  <CaseRow
                    key={item.id}
                    item={item}
                    setting={setting}
                    href={(subPath) =>
                      caseDetailHref(
                        item.id,
                        {
                          from: search,
                          prev: rows[index - 1]?.id,
                          next: rows[index + 1]?.id,
                          index: (search.page - 1) * search.limit + index,
                          total: data?.total ?? rows.length,
                        },
                        subPath,
                      )
                    }
                    expanded={expanded.has(item.id)}
                    onExpand={() => toggle(item.id)}
                    selected={selected}
                    onSelect={onSelect}
                    labelChange={labelChange}
                  />
                ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
