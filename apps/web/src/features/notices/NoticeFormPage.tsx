import {
  Anchor,
  Button,
  Group,
  Input,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { GROUP_ROLES, NOTICE_RANGES, type GroupRole } from '@pathology/contract';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ValidationError } from '../../api/errors.ts';
import { DateField } from '../../components/DateField.tsx';
import { NotFoundPage } from '../../components/NotFoundPage.tsx';
import { errorText, fieldErrorText } from '../../i18n/error-text.ts';
import { NoticeHtml } from './NoticeHtml.tsx';
import {
  defaultNoticeForm,
  formToRequest,
  noticeFormErrors,
  noticeToForm,
  type NoticeFormErrors,
  type NoticeFormValues,
} from './notice-form.ts';
import { noticeQueryKeys, saveNotice, useNotice } from './notices.queries.ts';
import { NoticeBodyEditor } from './NoticeBodyEditor.tsx';

const isRole = (value: string | null): value is GroupRole => GROUP_ROLES.includes(value as GroupRole);

/** The form itself, once its starting values are known. */
function NoticeForm({ noticeId, initial }: { noticeId: string | null; initial: NoticeFormValues }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<NoticeFormErrors>({});
  const [preview, setPreview] = useState(false);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof NoticeFormValues>(key: K, value: NoticeFormValues[K]) => {
    setValues((previous) => ({ ...previous, [key]: value }));
    setErrors((previous) => ({ ...previous, [key]: undefined }));
  };
  const fieldError = (key: keyof NoticeFormErrors) => fieldErrorText(errors[key], t);
  const hourOrMinute = (value: string | number): number | '' => (value === '' ? '' : Number(value));

  const submit = async () => {
    const found = noticeFormErrors(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const saved = await saveNotice(noticeId, formToRequest(values));
      await queryClient.invalidateQueries({ queryKey: noticeQueryKeys.all });
      notifications.show({ color: 'teal', message: t(noticeId ? 'notices.form.updated' : 'notices.form.created') });
      void navigate(`/notices/posts/${saved.id}`);
    } catch (error) {
      // What was typed stays; the server's field messages show next to their fields.
      if (error instanceof ValidationError) setErrors(error.errors);
      const key = noticeId ? 'notices.form.updateFailed' : 'notices.form.createFailed';
      notifications.show({ color: 'red', message: t(key, { message: errorText(error, t) }) });
      setBusy(false);
    }
  };

  return (
    <Stack gap="md" data-testid="notice-form">
      <Anchor component={Link} to={noticeId ? `/notices/posts/${noticeId}` : '/notices/posts'} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {t('notices.posts.back')}
        </Group>
      </Anchor>
      <Group justify="space-between">
        <Title order={1} fz="h2">
          {t(noticeId ? 'notices.form.editTitle' : 'notices.form.newTitle')}
        </Title>
        <Switch
          label={t('notices.form.preview')}
          checked={preview}
          onChange={(event) => setPreview(event.currentTarget.checked)}
          data-testid="notice-preview-toggle"
        />
      </Group>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="sm">
          <TextInput
            label={t('notices.form.title')}
            withAsterisk
            value={values.title}
            onChange={(event) => set('title', event.currentTarget.value)}
            error={fieldError('title')}
            data-testid="notice-title"
          />
          <Textarea
            label={t('notices.form.overview')}
            withAsterisk
            autosize
            minRows={2}
            value={values.overview}
            onChange={(event) => set('overview', event.currentTarget.value)}
            error={fieldError('overview')}
            data-testid="notice-overview"
          />
          <Input.Wrapper label={t('notices.form.body')} withAsterisk error={fieldError('body')}>
            {preview ? (
              <Paper withBorder p="md" radius="sm" data-testid="notice-preview">
                <NoticeHtml html={values.body} />
              </Paper>
            ) : (
              <NoticeBodyEditor value={values.body} onChange={(html) => set('body', html)} error={fieldError('body')} />
            )}
          </Input.Wrapper>
          <Group align="flex-start" grow>
            <DateField
              label={t('notices.form.postDate')}
              withAsterisk
              value={values.date}
              onChange={(value) => set('date', value)}
              error={fieldError('date')}
              data-testid="notice-date"
            />
            <NumberInput
              label={t('notices.form.hour')}
              withAsterisk
              min={0}
              max={23}
              allowDecimal={false}
              value={values.hour}
              onChange={(value) => set('hour', hourOrMinute(value))}
              error={fieldError('hour')}
              data-testid="notice-hour"
            />
            <NumberInput
              label={t('notices.form.minute')}
              withAsterisk
              min={0}
              max={59}
              allowDecimal={false}
              value={values.minute}
              onChange={(value) => set('minute', hourOrMinute(value))}
              error={fieldError('minute')}
              data-testid="notice-minute"
            />
          </Group>
          <Group align="flex-start" grow>
            <DateField
              label={t('notices.form.closeDate')}
              description={t('notices.form.closeHint')}
              clearable
              value={values.closeDate}
              onChange={(value) => set('closeDate', value)}
              error={fieldError('closeDate')}
              data-testid="notice-close-date"
            />
            <NumberInput
              label={t('notices.form.hour')}
              min={0}
              max={23}
              allowDecimal={false}
              value={values.closeHour}
              onChange={(value) => set('closeHour', hourOrMinute(value))}
              error={fieldError('closeHour')}
              data-testid="notice-close-hour"
            />
            <NumberInput
              label={t('notices.form.minute')}
              min={0}
              max={59}
              allowDecimal={false}
              value={values.closeMinute}
              onChange={(value) => set('closeMinute', hourOrMinute(value))}
              error={fieldError('closeMinute')}
              data-testid="notice-close-minute"
            />
          </Group>
          <Group align="flex-start" grow>
            <Select
              label={t('notices.form.permission')}
              withAsterisk
              data={NOTICE_RANGES.map((range) => ({ value: range.value, label: t(`notices.ranges.${range.value}`) }))}
              value={values.permission}
              onChange={(value) => set('permission', isRole(value) ? value : null)}
              error={fieldError('permission')}
              data-testid="notice-permission"
            />
            <Input.Wrapper label={t('notices.form.draft')} withAsterisk>
              <SegmentedControl
                fullWidth
                value={values.draft}
                onChange={(value) => set('draft', value)}
                data={(['Draft', 'Publishing'] as const).map((value) => ({ value, label: t(`notices.form.${value}`) }))}
                data-testid="notice-draft"
              />
            </Input.Wrapper>
          </Group>
          <Group justify="flex-end">
            <Text size="xs" c="dimmed" mr="auto">
              {Intl.DateTimeFormat().resolvedOptions().timeZone}
            </Text>
            <Button loading={busy} onClick={() => void submit()} data-testid="notice-save">
              {t('notices.form.save')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}

function EditNotice({ noticeId }: { noticeId: string }) {
  const existing = useNotice('posts', noticeId);
  if (existing.isError) return <NotFoundPage />;
  if (!existing.data) return null;
  return <NoticeForm noticeId={noticeId} initial={noticeToForm(existing.data)} />;
}

/** /notices/posts/new and /notices/posts/{id}/edit (super users). */
export function NoticeFormPage() {
  const { noticeId } = useParams();
  return noticeId ? <EditNotice noticeId={noticeId} /> : <NoticeForm noticeId={null} initial={defaultNoticeForm()} />;
}
