import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

const html = (source: string) => render(<div>{renderMarkdown(source)}</div>).container.innerHTML;

describe('renderMarkdown', () => {
  it('renders headings, paragraphs, lists, code and emphasis', () => {
    expect(
      html(
        '# Data\n\nColumns are **depth** and *temp*,\nin `m`.\n\n- one\n- two\n\n1. first\n\n```\nx <b>\n```',
      ),
    ).toBe(
      '<div><h3>Data</h3><p>Columns are <strong>depth</strong> and <em>temp</em>, in <code>m</code>.</p>' +
        '<ul><li>one</li><li>two</li></ul><ol><li>first</li></ol><pre><code>x &lt;b&gt;</code></pre></div>',
    );
  });

  it('keeps only http(s) and mailto links and never parses HTML', () => {
    expect(
      html('[site](https://example.org) [bad](javascript:void) <img src=x onerror=alert(1)>'),
    ).toBe(
      '<div><p><a href="https://example.org" rel="noopener noreferrer nofollow">site</a> bad ' +
        '&lt;img src=x onerror=alert(1)&gt;</p></div>',
    );
  });
});
