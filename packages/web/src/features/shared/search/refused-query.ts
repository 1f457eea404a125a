import { useTranslation } from 'react-i18next';
import { serverMessageOf } from '../../../api/client';

/**
 * Why the server refused a search, in the words shown at its search box: the server's own
 * message first, since for a query it cannot parse that says where, which the reader needs.
 * Undefined when there is no error or the server gave no message (a lost connection says nothing
 * about the query).
 */
export function useRefusedQueryMessage(error: unknown): string | undefined {
  const { t } = useTranslation();
  const message = error ? serverMessageOf(error) : undefined;
  return message === undefined ? undefined : t('search.queryFailed', { message });
}
