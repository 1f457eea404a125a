import 'i18next';
import type importMetadata from '../features/deposit/import/locales/en_US.json';
import type { resources } from './i18n';

// Translation keys are checked at compile time against the English resources. A dialog that
// brings its own strings in its own chunk (not the page's) declares them as a namespace here.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: (typeof resources)['en_US'] & { importMetadata: typeof importMetadata };
  }
}
