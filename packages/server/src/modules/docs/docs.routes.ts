import type { FastifyInstance } from 'fastify';

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Cairn REST API</title>
    <style>
      body { font: 16px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }
      code { background: #f3f3f3; padding: 0 .25em; }
      h2 { margin-top: 2rem; }
      li { margin: .25rem 0; }
    </style>
  </head>
  <body>
    <main>
      <h1>Cairn REST API</h1>
      <p>Cairn speaks InvenioRDM's REST API: existing InvenioRDM clients work unchanged. Authenticate with
      <code>Authorization: Bearer &lt;token&gt;</code> (create one with <code>npx cairn tokens create EMAIL</code>).
      The machine-readable document is at <a href="/api/docs/openapi.json">/api/docs/openapi.json</a>;
      operations tagged <em>Cairn extension</em> go beyond the InvenioRDM contract.</p>
      <div id="ops">Loading…</div>
    </main>
    <script type="module" src="/api/docs/reference.js"></script>
  </body>
</html>`;

/**
 * Lists the operations of the OpenAPI document. A file of its own, not inline: the pages'
 * Content-Security-Policy runs scripts from this site only.
 */
const SCRIPT = `const doc = await (await fetch('/api/docs/openapi.json')).json();
const groups = new Map();
for (const [path, ops] of Object.entries(doc.paths)) {
  for (const [method, op] of Object.entries(ops)) {
    const tag = (op.tags && op.tags[0]) || 'Other';
    if (!groups.has(tag)) groups.set(tag, []);
    groups.get(tag).push({ method: method.toUpperCase(), path, summary: op.summary || '' });
  }
}
const root = document.getElementById('ops');
root.textContent = '';
for (const [tag, ops] of groups) {
  const h = document.createElement('h2'); h.textContent = tag; root.append(h);
  const ul = document.createElement('ul');
  for (const op of ops) {
    const li = document.createElement('li');
    const code = document.createElement('code'); code.textContent = op.method + ' ' + op.path;
    li.append(code, ' — ' + op.summary); ul.append(li);
  }
  root.append(ul);
}
`;

/** The API reference page for people; the OpenAPI document itself comes from @fastify/swagger. */
export function registerDocsPage(app: FastifyInstance): void {
  app.get('/api/docs', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(PAGE),
  );
  app.get('/api/docs/reference.js', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(SCRIPT),
  );
}
