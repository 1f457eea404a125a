/** The colour of each request status's badge, on the request page and in lists. */
export const STATUS_COLORS: Record<string, string> = {
  submitted: 'blue',
  accepted: 'green',
  declined: 'red',
  cancelled: 'gray',
  expired: 'gray',
};
