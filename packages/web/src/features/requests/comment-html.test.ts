import { describe, expect, it } from 'vitest';
import { commentHtmlToText, textToCommentHtml } from './comment-html';

describe('comment text and HTML', () => {
  it('makes paragraphs and line breaks, and escapes what was typed', () => {
    expect(textToCommentHtml('  Please add a README.\nThanks!\n\n<b>x</b> & "y"  ')).toBe(
      '<p>Please add a README.<br>Thanks!</p><p>&lt;b&gt;x&lt;/b&gt; &amp; &quot;y&quot;</p>',
    );
    expect(textToCommentHtml(' \n\n ')).toBe('');
  });

  it('turns a stored comment back into the text that made it', () => {
    const text = 'Please add a README.\nThanks!\n\n<b>x</b> & "y"';
    expect(commentHtmlToText(textToCommentHtml(text))).toBe(text);
    expect(commentHtmlToText('plain <em>words</em>')).toBe('plain words');
  });
});
