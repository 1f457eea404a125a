import { Typography } from '@mantine/core';

/**
 * HTML that has been through the sanitiser (`displayHtml`), in the typography of rich text. A
 * module apart from the sanitiser, so that a page can show it without loading DOMPurify first.
 */
export function SanitisedHtml({ html }: { html: string }) {
  return (
    <Typography>
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}
