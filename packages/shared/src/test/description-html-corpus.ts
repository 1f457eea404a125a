/**
 * Description HTML that both sanitisers (sanitize-html on the server, DOMPurify in the browser)
 * must treat alike: XSS vectors to drop and formatting to keep. `expected`, where given, is the
 * result both must reach (compared as parsed DOMs, not strings).
 */
export interface SanitizerCase {
  name: string;
  html: string;
  expected?: string;
  /**
   * Why the two may keep different things here, when they do. The server parses with
   * htmlparser2, the browser with the HTML standard's parser, and markup broken in certain ways
   * is read differently; where that is so, both results must still be within the allow-list.
   */
  differs?: string;
}

export const DESCRIPTION_HTML_CORPUS: readonly SanitizerCase[] = [
  // Formatting that stays.
  {
    name: 'paragraphs and inline formatting',
    html: '<p>A <strong>bold</strong>, <b>b</b>, <em>em</em>, <i>i</i>, <u>u</u>, <s>s</s>, H<sub>2</sub>O, x<sup>2</sup> and <code>code</code>.</p><br><hr>',
    expected:
      '<p>A <strong>bold</strong>, <b>b</b>, <em>em</em>, <i>i</i>, <u>u</u>, <s>s</s>, H<sub>2</sub>O, x<sup>2</sup> and <code>code</code>.</p><br><hr>',
  },
  {
    name: 'headings, quotes and preformatted text',
    html: '<h1>One</h1><h2>Two</h2><h3>Three</h3><h4>Four</h4><blockquote><p>Quoted</p></blockquote><pre>  spaced\n  text</pre>',
    expected:
      '<h1>One</h1><h2>Two</h2><h3>Three</h3><h4>Four</h4><blockquote><p>Quoted</p></blockquote><pre>  spaced\n  text</pre>',
  },
  {
    name: 'nested lists',
    html: '<ul><li>one<ol><li>one.a</li><li>one.b<ul><li>deep</li></ul></li></ol></li><li>two</li></ul>',
    expected:
      '<ul><li>one<ol><li>one.a</li><li>one.b<ul><li>deep</li></ul></li></ol></li><li>two</li></ul>',
  },
  {
    name: 'a table with head and body',
    html: '<table><thead><tr><th>Site</th><th>Depth</th></tr></thead><tbody><tr><td>A</td><td>12 m</td></tr></tbody></table>',
    expected:
      '<table><thead><tr><th>Site</th><th>Depth</th></tr></thead><tbody><tr><td>A</td><td>12 m</td></tr></tbody></table>',
  },
  {
    name: 'a table without tbody (the browser adds it)',
    html: '<table><tr><td>cell</td></tr></table>',
    expected: '<table><tbody><tr><td>cell</td></tr></tbody></table>',
  },
  {
    name: 'spans and divs lose their attributes',
    html: '<div class="x" id="y" style="color:red" data-x="1" aria-label="z"><span title="t" lang="en">text</span></div>',
    expected: '<div><span>text</span></div>',
  },
  {
    name: 'links keep href and title, not target, rel or anything else',
    html: '<a href="https://example.org/a?b=c&amp;d=e" title="Example" target="_blank" rel="opener" class="c" id="i" name="n" download ping="https://x.test">site</a> <a href="mailto:ada@example.org">mail</a> <a href="http://example.org">plain</a>',
    expected:
      '<a href="https://example.org/a?b=c&amp;d=e" title="Example">site</a> <a href="mailto:ada@example.org">mail</a> <a href="http://example.org">plain</a>',
  },
  {
    name: 'relative links stay',
    html: '<a href="/records/abc">record</a> <a href="#top">top</a> <a href="page.html">page</a> <a href="//example.org/x">scheme-relative</a>',
    expected:
      '<a href="/records/abc">record</a> <a href="#top">top</a> <a href="page.html">page</a> <a href="//example.org/x">scheme-relative</a>',
  },
  {
    name: 'text with characters that need escaping',
    html: '<p>1 &lt; 2 &amp;&amp; 3 &gt; 2 "quoted" \'single\' &nbsp;</p>',
    expected: '<p>1 &lt; 2 &amp;&amp; 3 &gt; 2 "quoted" \'single\' &nbsp;</p>',
  },
  {
    name: 'unknown elements are unwrapped, their text kept',
    html: '<article><section><font color="red">red</font> <center>c</center> <custom-el x="1">custom</custom-el> <img src="x.png" alt="pic"> <input value="v"> <button>btn</button></section></article>',
    expected: 'red c custom   btn',
  },

  // Scripts.
  {
    name: 'script elements',
    html: '<p>before</p><script>alert(1)</script><SCRIPT SRC="https://evil.test/x.js"></SCRIPT><p>after</p>',
    expected: '<p>before</p><p>after</p>',
  },
  {
    name: 'script split by a broken tag',
    html: '<scr<script>ipt>alert(1)</scr</script>ipt>',
  },
  {
    name: 'event handlers',
    html: '<p onclick="alert(1)" onmouseover="alert(2)">p</p><a href="https://example.org" onfocus="alert(3)" autofocus>a</a><div ONLOAD="alert(4)">d</div>',
    expected: '<p>p</p><a href="https://example.org">a</a><div>d</div>',
  },
  {
    name: 'event handlers on dropped elements',
    html: '<img src=x onerror=alert(1)><body onload=alert(2)><video><source onerror="alert(3)"></video><details open ontoggle=alert(4)>x</details>',
    expected: 'x',
  },
  {
    name: 'javascript: links',
    html: '<a href="javascript:alert(1)">a</a><a href="JaVaScRiPt:alert(2)">b</a><a href=" javascript:alert(3)">c</a><a href="jav&#x09;ascript:alert(4)">d</a><a href="java\nscript:alert(5)">e</a>',
    expected: '<a>a</a><a>b</a><a>c</a><a>d</a><a>e</a>',
  },
  {
    name: 'entity-encoded schemes',
    html: '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">a</a><a href="&#x6A;avascript&colon;alert(2)">b</a><a href="javascript&#0000058alert(3)">c</a>',
    expected: '<a>a</a><a>b</a><a>c</a>',
  },
  {
    name: 'data:, vbscript: and other schemes',
    html: '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">a</a><a href="vbscript:msgbox(1)">b</a><a href="file:///etc/passwd">c</a><a href="ftp://example.org">d</a><a href="foo123:bar">e</a>',
    expected: '<a>a</a><a>b</a><a>c</a><a>d</a><a>e</a>',
  },
  {
    name: 'frames, objects and embeds',
    html: '<iframe src="https://evil.test"></iframe><iframe srcdoc="<script>alert(1)</script>">fallback</iframe><object data="x.swf"><param name="a" value="b">object text</object><embed src="x.swf">',
    expected: 'object text',
  },
  {
    name: 'forms',
    html: '<form action="https://evil.test"><input name="a" value="x"><textarea>typed &lt;b&gt;</textarea><select><option>one</option></select><button formaction="javascript:alert(1)">go</button></form>',
    expected: 'go',
  },
  {
    name: 'meta, link and base',
    html: '<meta http-equiv="refresh" content="0;url=https://evil.test"><link rel="stylesheet" href="https://evil.test/x.css"><base href="https://evil.test/"><p>text</p>',
    expected: '<p>text</p>',
  },

  // Styles.
  {
    name: 'style elements and attributes',
    html: '<style>body { display: none }</style><p style="background:url(javascript:alert(1))">p</p><STYLE>@import "https://evil.test/x.css";</STYLE>',
    expected: '<p>p</p>',
  },

  // SVG and MathML.
  {
    name: 'svg with script and handlers',
    html: '<svg onload="alert(1)"><script>alert(2)</script><a xlink:href="javascript:alert(3)"><text>svg text</text></a></svg><p>after</p>',
    expected: '<p>after</p>',
  },
  {
    name: 'svg foreignObject',
    html: '<svg><foreignObject><p onclick="alert(1)">inside</p></foreignObject></svg>',
    expected: '',
  },
  {
    name: 'math with a link',
    html: '<math><mtext><a href="javascript:alert(1)">x</a></mtext><mi>y</mi></math><p>after</p>',
    expected: '<p>after</p>',
  },
  {
    name: 'namespace confusion through math and style',
    html: '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  },
  {
    name: 'namespace confusion through svg and p',
    html: '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
    differs:
      'the server drops everything after an <svg> that is never closed; the browser closes it at </p> and keeps an empty paragraph and the text ">"',
  },
  {
    name: 'noscript holding markup',
    html: '<noscript><p title="</noscript><img src=x onerror=alert(1)>">x</p></noscript>',
    differs:
      'the browser parses a leading <noscript> into the head, so the paragraph after it (its title dropped) stays; the server drops it with the <noscript>',
  },

  // Comments, templates and odd markup.
  {
    name: 'comments',
    html: '<p>a<!-- hidden --></p><!--[if IE]><script>alert(1)</script><![endif]--><p>b</p><!-- <script>alert(2)</script> -->',
    expected: '<p>a</p><p>b</p>',
  },
  {
    name: 'a comment closing early',
    html: '<!--><img src=x onerror=alert(1)>-->',
  },
  {
    name: 'templates',
    html: '<template><script>alert(1)</script><p>in template</p></template><p>out</p>',
    expected: '<p>out</p>',
  },
  {
    name: 'CDATA and processing instructions',
    html: '<![CDATA[<script>alert(1)</script>]]><?xml version="1.0"?><p>text</p>',
    differs:
      'the server reads a CDATA section and drops it whole; HTML reads it as a comment ending at the first ">", so the browser keeps the rest as the text "alert(1)]]>"',
  },
  {
    name: 'unclosed and misnested tags',
    html: '<p><strong>bold <em>both</strong> em?</em> <a href="https://example.org">open link',
    differs:
      'the browser reopens <em> around " em?" after </strong> closed it, the server leaves that text plain: formatting only',
  },
  {
    name: 'uppercase tags and attributes',
    html: '<P><A HREF="https://example.org" TITLE="T">Link</A></P><UL><LI>item</LI></UL>',
    expected: '<p><a href="https://example.org" title="T">Link</a></p><ul><li>item</li></ul>',
  },
  {
    name: 'DOM clobbering names and ids',
    html: '<a href="https://example.org" id="location" name="cookie">a</a><div id="__proto__">b</div>',
    expected: '<a href="https://example.org">a</a><div>b</div>',
  },
  {
    name: 'attribute breaking out of its quotes',
    html: '<a href="https://example.org/&quot;onmouseover=&quot;alert(1)" title="x&quot; onclick=&quot;alert(2)">a</a>',
    expected:
      '<a href="https://example.org/&quot;onmouseover=&quot;alert(1)" title="x&quot; onclick=&quot;alert(2)">a</a>',
  },
];
