import { createTheme } from '@mantine/core';

export const theme = createTheme({
  // Keyboard users always see where they are (WCAG 2.4.7); mouse clicks show no ring.
  focusRing: 'auto',
  primaryColor: 'teal',
});
