import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconMapSearch } from '@tabler/icons-react';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Center mih="60vh" data-testid="not-found">
      <Stack align="center" gap="md" maw={480} ta="center">
        <ThemeIcon variant="light" size={72} radius="xl">
          <IconMapSearch size={36} />
        </ThemeIcon>
        <Text c="violet" fw={700} size="sm" style={{ letterSpacing: '0.12em' }}>
          {t('notFound.code')}
        </Text>
        <Title order={2} fz="h3">
          {t('notFound.message')}
        </Title>
        <Button component={Link} to="/" variant="light" mt="sm">
          {t('notFound.home')}
        </Button>
      </Stack>
    </Center>
  );
}
