import { Typography } from '@mantine/core';
import DOMPurify from 'dompurify';
import { useEffect, useMemo, useState } from 'react';
import { withShownPictures } from './notice-pictures.ts';

/**
 * A notice body, sanitised again in the browser (DOMPurify) although the server stored it sanitised:
 * a body that reached the database some other way still cannot run anything here.
 */
export function NoticeHtml({ html: body, testId }: { html: string; testId?: string }) {
  const clean = useMemo(
    () => DOMPurify.sanitize(body, { FORBID_TAGS: ['style', 'form'], FORBID_ATTR: ['style'], ALLOW_DATA_ATTR: false }),
    [body],
  );
  // Pictures are fetched with the reader's token and shown from local copies; until then, without them.
  const [shown, setShown] = useState<{ from: string; html: string } | null>(null);
  useEffect(() => {
    let current = true;
    void withShownPictures(clean).then((html) => {
      if (current) setShown({ from: clean, html });
    });
    return () => {
      current = false;
    };
  }, [clean]);
  const html = shown?.from === clean ? shown.html : clean.replace(/<img[^>]*>/g, '');
  return <Typography data-testid={testId} dangerouslySetInnerHTML={{ __html: html }} />;
}
