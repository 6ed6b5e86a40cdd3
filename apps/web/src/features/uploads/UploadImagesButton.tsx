import { Button } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconUpload } from '@tabler/icons-react';
import { UploadDialog } from './UploadDialog.tsx';

/** The case list's "Add Images": opens the upload dialog for the current group. */
export function UploadImagesButton({
  organization,
  showModel,
}: {
  organization: { id: string; name: string };
  showModel: boolean;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        size="xs"
        variant="light"
        leftSection={<IconUpload size={15} />}
        onClick={() => setOpened(true)}
        data-testid="open-upload-dialog"
      >
        {t('uploads.addImages')}
      </Button>
      <UploadDialog
        opened={opened}
        onClose={() => setOpened(false)}
        organization={organization}
        showModel={showModel}
      />
    </>
  );
}
