// @ts-check
import path from 'node:path';

/**
 * A feature of the web app (a folder under packages/web/src/features) imports only itself,
 * features/shared, and what lies outside features (components, api, app-level modules). What two
 * features both need moves to features/shared or components, so that a feature can change its
 * insides without breaking another. Only relative imports can reach a feature: the app has no
 * path aliases.
 *
 * @type {import('eslint').Rule.RuleModule}
 */
export default {
  meta: {
    type: 'problem',
    docs: { description: "a web feature never imports another feature's modules" },
    schema: [],
    messages: {
      crossFeature:
        'features/{{own}} may not import features/{{other}}: move what both need to features/shared or components.',
    },
  },
  create(context) {
    const file = context.filename.split(path.sep).join('/');
    const marker = '/packages/web/src/features/';
    const at = file.lastIndexOf(marker);
    if (at < 0) return {};
    const featuresDir = file.slice(0, at + marker.length - 1);
    const own = file.slice(at + marker.length).split('/')[0];
    if (own === undefined || !file.slice(at + marker.length).includes('/')) return {};

    /** @param {import('estree').Node} node @param {unknown} source */
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.posix.relative(
        featuresDir,
        path.posix.resolve(path.posix.dirname(file), source),
      );
      if (target === '' || target.startsWith('..') || path.posix.isAbsolute(target)) return;
      const other = target.split('/')[0];
      if (other === own || other === 'shared') return;
      context.report({ node, messageId: 'crossFeature', data: { own, other } });
    };

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => check(node, node.source?.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) =>
        check(node, node.source.type === 'Literal' ? node.source.value : undefined),
    };
  },
};
