import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The colour of each request status's badge, on the request page and in lists. */
const STATUS_COLORS: Record<string, string> = {
  submitted: 'blue',
  accepted: 'green',
  declined: 'red',
  cancelled: 'gray',
  expired: 'gray',
};

/** A request's status as a badge; a status this version does not know reads as it is. */
export function RequestStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLORS[status] ?? 'gray'} variant="light">
      {t(`requests.status.${status}`, { defaultValue: status })}
    </Badge>
  );
}
