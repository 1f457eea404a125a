import { Pagination } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface PagePaginationProps {
  /** The number of pages; nothing is shown for one page or none. */
  total: number;
  value: number;
  onChange: (page: number) => void;
}

/** Page links whose every control says where it leads ("Page 3", "Next page") to screen readers. */
export function PagePagination({ total, value, onChange }: PagePaginationProps) {
  const { t } = useTranslation();
  if (total <= 1) return null;
  return (
    <Pagination
      total={total}
      value={value}
      onChange={onChange}
      getControlProps={(control) => ({ 'aria-label': t(`records.pagination.${control}`) })}
      getItemProps={(n) => ({ 'aria-label': t('records.pagination.page', { page: n }) })}
    />
  );
}
