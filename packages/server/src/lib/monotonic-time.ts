let last = 0;

/**
 * ISO timestamps strictly increasing within this process: lists ordered by creation (timelines,
 * newest communities) would otherwise tie when two writes share a millisecond.
 */
export function monotonicNow(): string {
  last = Math.max(Date.now(), last + 1);
  return new Date(last).toISOString();
}
