import { createTheme } from '@mantine/core';

// System UI fonts first, then Japanese faces per platform, so kana and kanji never fall back to a mismatched serif.
const fontFamily = [
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Hiragino Sans"',
  '"Hiragino Kaku Gothic ProN"',
  '"Noto Sans JP"',
  '"Noto Sans CJK JP"',
  '"Yu Gothic UI"',
  'Meiryo',
  'sans-serif',
].join(', ');

export const theme = createTheme({
  primaryColor: 'violet',
  primaryShade: { light: 6, dark: 5 },
  defaultRadius: 'md',
  fontFamily,
  headings: { fontFamily, fontWeight: '650' },
  cursorType: 'pointer',
});
