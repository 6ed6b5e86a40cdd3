import { Button, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { IconEye } from '@tabler/icons-react';
import i18n from '../../i18n/index.ts';
import type { UploadItem } from './upload-types.ts';
import { uploadedSlidePath } from './uploaded-slide.ts';

/** Toasts render outside the router: the signed-in layout lends them its navigation (a full load would stop uploads). */
let navigate: (path: string) => void = (path) => window.location.assign(path);

/** Lets the upload toasts' links navigate within the app; mounted once, inside the router. */
export function UploadToastNavigation() {
  const routerNavigate = useNavigate();
  useEffect(() => {
    navigate = (path) => void routerNavigate(path);
  }, [routerNavigate]);
  return null;
}

/** "x was uploaded to case y", and for a slide its "View slide" action. */
export function completedToastMessage(item: UploadItem, onView: () => void) {
  const t = i18n.t.bind(i18n);
  const href = uploadedSlidePath(item);
  return (
    <Stack gap={6} align="flex-start">
      <Text size="sm">{t('uploads.toast.completed', { filename: item.filename, caseNumber: item.caseNumber })}</Text>
      {href && (
        <Button
          size="compact-xs"
          variant="light"
          leftSection={<IconEye size={14} />}
          onClick={() => {
            onView();
            navigate(href);
          }}
          data-testid="upload-toast-view-slide"
        >
          {t('uploads.actions.viewSlide')}
        </Button>
      )}
    </Stack>
  );
}
