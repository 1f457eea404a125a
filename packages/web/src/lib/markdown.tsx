import { Fragment, type ReactNode } from 'react';

const SAFE_LINK = /^(https?:|mailto:)/i;
const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\([^)\s]+\))/g;

function inline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const [token] = match;
    const at = match.index;
    if (at > last) out.push(text.slice(last, at));
    if (match[1]) out.push(<code key={at}>{token.slice(1, -1)}</code>);
    else if (match[2]) out.push(<strong key={at}>{inline(token.slice(2, -2))}</strong>);
    else if (match[3]) out.push(<em key={at}>{inline(token.slice(1, -1))}</em>);
    else {
      const [, label = '', href = ''] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(token) ?? [];
      out.push(
        SAFE_LINK.test(href) ? (
          <a key={at} href={href} rel="noopener noreferrer nofollow">
            {inline(label)}
          </a>
        ) : (
          <Fragment key={at}>{label}</Fragment>
        ),
      );
    }
    last = at + token.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/**
 * The common part of Markdown (headings, paragraphs, lists, fenced code, emphasis, code, links)
 * as React elements. No HTML is ever parsed from the source, so nothing in a README can run; a
 * link is kept only when it is http(s) or mailto.
 */
export function renderMarkdown(source: string): ReactNode[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: ReactNode[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const key = blocks.length;
    if (line.startsWith('```')) {
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i]!.startsWith('```'); i++) code.push(lines[i]!);
      i++;
      blocks.push(
        <pre key={key}>
          <code>{code.join('\n')}</code>
        </pre>,
      );
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      // Headings inside a file sit below the page's own: # becomes h3, and so on down to h6.
      const Tag = `h${Math.min(heading[1]!.length + 2, 6)}` as 'h3';
      blocks.push(<Tag key={key}>{inline(heading[2]!)}</Tag>);
      i++;
      continue;
    }
    const bullet = /^\s*([-*+]|\d+[.)])\s+/;
    if (bullet.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: ReactNode[] = [];
      for (; i < lines.length && bullet.test(lines[i]!); i++)
        items.push(<li key={i}>{inline(lines[i]!.replace(bullet, ''))}</li>);
      blocks.push(ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>);
      continue;
    }
    if (line.trim() === '') {
      i++;
      continue;
    }
    const paragraph: string[] = [];
    for (
      ;
      i < lines.length &&
      lines[i]!.trim() !== '' &&
      !/^(#{1,6}\s|```)/.test(lines[i]!) &&
      !bullet.test(lines[i]!);
      i++
    )
      paragraph.push(lines[i]!);
    blocks.push(<p key={key}>{inline(paragraph.join(' '))}</p>);
  }
  return blocks;
}
