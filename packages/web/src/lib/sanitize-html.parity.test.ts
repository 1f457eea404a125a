import { describe, expect, it } from 'vitest';
import {
  DESCRIPTION_HTML_ATTRIBUTES,
  DESCRIPTION_HTML_SCHEMES,
  DESCRIPTION_HTML_TAGS,
} from '@cairn/shared';
import { DESCRIPTION_HTML_CORPUS } from '../../../shared/src/test/description-html-corpus';
// The one place the web app's code meets the server's: this test runs the server's sanitiser
// beside the browser's to hold them to the same result.
// eslint-disable-next-line no-restricted-imports
import { sanitizeRichText } from '../../../server/src/lib/html';
import { displayHtml, sanitizeHtml } from './sanitize-html';

/** A parsed node as the comparison sees it: elements with sorted attributes, merged text. */
type TreeNode =
  | { text: string }
  | { comment: string }
  | { tag: string; attributes: Array<[string, string]>; children: TreeNode[] };

function children(parent: Node): TreeNode[] {
  const out: TreeNode[] = [];
  for (const node of parent.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) {
      const last = out.at(-1);
      if (last && 'text' in last) last.text += node.textContent ?? '';
      else out.push({ text: node.textContent ?? '' });
    } else if (node.nodeType === Node.COMMENT_NODE) {
      out.push({ comment: node.textContent ?? '' });
    } else if (node.nodeType === Node.ELEMENT_NODE) {
      const element = node as Element;
      out.push({
        tag: element.localName,
        attributes: [...element.attributes]
          .map((a): [string, string] => [a.name, a.value])
          .sort(([a], [b]) => a.localeCompare(b)),
        children: children(element),
      });
    }
  }
  return out;
}

/** `html` as the browser builds it inside the element a page renders descriptions into. */
function tree(html: string): TreeNode[] {
  const container = document.createElement('div');
  container.innerHTML = html;
  return children(container);
}

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/** Whatever a sanitiser let through must be in the allow-list: elements, attributes, schemes. */
function expectWithinAllowList(nodes: TreeNode[], where: string): void {
  for (const node of nodes) {
    expect('comment' in node, `${where}: a comment`).toBe(false);
    if (!('tag' in node)) continue;
    expect(DESCRIPTION_HTML_TAGS, `${where}: <${node.tag}>`).toContain(node.tag);
    for (const [name, value] of node.attributes) {
      expect(
        DESCRIPTION_HTML_ATTRIBUTES[node.tag] ?? [],
        `${where}: ${node.tag}[${name}]`,
      ).toContain(name);
      const scheme = name === 'href' ? SCHEME.exec(value.replace(/\s/g, ''))?.[1] : undefined;
      if (scheme) expect(DESCRIPTION_HTML_SCHEMES).toContain(scheme.toLowerCase());
    }
    expectWithinAllowList(node.children, where);
  }
}

describe('the server and the browser sanitise descriptions alike', () => {
  it.each(DESCRIPTION_HTML_CORPUS.map((c) => [c.name, c] as const))('%s', (_name, testCase) => {
    const onServer = sanitizeRichText(testCase.html);
    const inBrowser = sanitizeHtml(testCase.html);
    if (testCase.differs === undefined) {
      expect(tree(inBrowser), 'DOMPurify against sanitize-html').toEqual(tree(onServer));
    } else {
      // Told apart on purpose: the case must still show the difference it explains.
      expect(tree(inBrowser), testCase.differs).not.toEqual(tree(onServer));
    }
    expectWithinAllowList(tree(inBrowser), `${testCase.name} (browser)`);
    expectWithinAllowList(tree(onServer), `${testCase.name} (server)`);
    // What the server stored, the browser shows unchanged.
    expect(tree(sanitizeHtml(onServer)), 'the stored description in the browser').toEqual(
      tree(onServer),
    );
    if (testCase.expected !== undefined) {
      expect(tree(inBrowser), 'the expected result').toEqual(tree(testCase.expected));
    }
    // What either kept is kept again unchanged: a second pass finds nothing new to remove.
    expect(tree(sanitizeHtml(inBrowser))).toEqual(tree(inBrowser));
    expect(tree(sanitizeRichText(onServer))).toEqual(tree(onServer));
  });
});

describe('displayHtml', () => {
  it('is the sanitised description with links marked as written by someone else', () => {
    const html =
      '<p>See <a href="https://example.org" rel="opener" target="_blank">this</a> and <a>no link</a>.</p>';
    expect(tree(displayHtml(html))).toEqual(
      tree(
        '<p>See <a href="https://example.org" rel="noopener noreferrer nofollow">this</a> and <a>no link</a>.</p>',
      ),
    );
    expect(sanitizeHtml(html)).toBe(
      '<p>See <a href="https://example.org">this</a> and <a>no link</a>.</p>',
    );
  });
});
