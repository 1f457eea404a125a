import { LICENSE_DESCRIPTION_MAX } from '@cairn/shared';

/** A licence description cut to the shared maximum, with an ellipsis when cut. */
export function truncateDescription(text: string, max = LICENSE_DESCRIPTION_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max).trimEnd()}…`;
}
