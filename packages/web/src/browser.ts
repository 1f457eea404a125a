/**
 * Navigations that leave React Router's hands. Kept behind one object so tests can spy on them:
 * jsdom implements neither full page loads nor a replaceable `window.location`.
 */
export const browser = {
  /** A full page load, so the server renders the page's bootstrap afresh (e.g. after login). */
  assign: (url: string): void => {
    window.location.assign(toSameOriginPath(url));
  },
  /**
   * Changes the address without a navigation. The router keeps rendering the current page, so the
   * mounted form and its unsaved input survive (after the first save of a new draft the address
   * becomes `self_html`). The router's history state is kept, so Back still works.
   */
  replaceUrl: (url: string): void => {
    window.history.replaceState(window.history.state, '', toSameOriginPath(url));
  },
};

/**
 * Server links are absolute URLs on the configured site URL; pages of this app are always on the
 * current origin (replaceState even throws for another origin).
 */
export function toSameOriginPath(url: string): string {
  const resolved = new URL(url, window.location.href);
  return resolved.pathname + resolved.search + resolved.hash;
}

/**
 * A `?next=` target is only followed when it is a path on this site: anything else would make
 * the login page an open redirect.
 */
export function toSafeNextPath(next: string | null, fallback: string): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) {
    return fallback;
  }
  return next;
}
