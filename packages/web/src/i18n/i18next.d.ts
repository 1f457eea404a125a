import 'i18next';
import type { resources } from './i18n';

// Translation keys are checked at compile time against the English resources.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: (typeof resources)['en_US'];
  }
}
