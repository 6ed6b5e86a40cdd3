import { Typography } from '@mantine/core';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';

/**
 * A notice body, sanitised again in the browser (DOMPurify) although the server stored it sanitised:
 * a body that reached the database some other way still cannot run anything here.
 */
export function NoticeHtml({ html, testId }: { html: string; testId?: string }) {
  const clean = useMemo(
    () => DOMPurify.sanitize(html, { FORBID_TAGS: ['style', 'form'], FORBID_ATTR: ['style'], ALLOW_DATA_ATTR: false }),
    [html],
  );
  return <Typography data-testid={testId} dangerouslySetInnerHTML={{ __html: clean }} />;
}
