import { matchRoutes, type RouteObject } from 'react-router';
import { AppLayout } from './AppLayout';
import { lazyPage, type LazyPage } from './lazy-page';
import { NotFoundPage } from './NotFoundPage';
import { RequireUser } from './RequireUser';

// Each page is its own chunk: opening one loads its code and libraries only.
const pages = {
  home: lazyPage(() => import('../features/home/HomePage').then((m) => m.HomePage)),
  search: lazyPage(() => import('../features/search/SearchPage').then((m) => m.SearchPage)),
  login: lazyPage(() => import('../features/account/LoginPage').then((m) => m.LoginPage)),
  signup: lazyPage(() => import('../features/account/SignupPage').then((m) => m.SignupPage)),
  tokens: lazyPage(() => import('../features/account/TokensPage').then((m) => m.TokensPage)),
  communities: lazyPage(() =>
    import('../features/communities/CommunitiesPage').then((m) => m.CommunitiesPage),
  ),
  community: lazyPage(() =>
    import('../features/communities/CommunityPage').then((m) => m.CommunityPage),
  ),
  newCommunity: lazyPage(() =>
    import('../features/communities/NewCommunityPage').then((m) => m.NewCommunityPage),
  ),
  uploads: lazyPage(() => import('../features/dashboard/UploadsPage').then((m) => m.UploadsPage)),
  deposit: lazyPage(() => import('../features/deposit/DepositPage').then((m) => m.DepositPage), {
    ownStringsOnly: true,
  }),
  record: lazyPage(() => import('../features/records/RecordPage').then((m) => m.RecordPage)),
  verifyAccessRequest: lazyPage(() =>
    import('../features/records/VerifyAccessRequestPage').then((m) => m.VerifyAccessRequestPage),
  ),
  request: lazyPage(() => import('../features/requests/RequestPage').then((m) => m.RequestPage)),
  requests: lazyPage(() =>
    import('../features/requests/MyRequestsPage').then((m) => m.MyRequestsPage),
  ),
  communityMembers: lazyPage(() =>
    import('../features/communities/MembersPage').then((m) => m.MembersPage),
  ),
  communityRequests: lazyPage(() =>
    import('../features/requests/CommunityRequestsPage').then((m) => m.CommunityRequestsPage),
  ),
} satisfies Record<string, LazyPage>;

/** A route showing `page`; its handle lets the page's code be fetched before the router asks. */
function pageRoute(path: string, page: LazyPage): RouteObject {
  return { path, element: <page.Page />, handle: page };
}

/**
 * The app's pages (ARCHITECTURE §5); the server serves index.html for each of these paths.
 * Rendered by AppRoutes, whose boundary shows RouteErrorPage when a page throws.
 */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { index: true, element: <pages.home.Page />, handle: pages.home },
      pageRoute('search', pages.search),
      pageRoute('login', pages.login),
      pageRoute('signup', pages.signup),
      pageRoute('records/:id', pages.record),
      pageRoute('access-requests/verify', pages.verifyAccessRequest),
      pageRoute('communities', pages.communities),
      pageRoute('communities/:slug', pages.community),
      {
        element: <RequireUser />,
        children: [
          pageRoute('uploads/new', pages.deposit),
          pageRoute('uploads/:id', pages.deposit),
          pageRoute('me/uploads', pages.uploads),
          pageRoute('account/tokens', pages.tokens),
          pageRoute('me/requests', pages.requests),
          pageRoute('me/requests/:id', pages.request),
          pageRoute('communities/:slug/requests', pages.communityRequests),
          pageRoute('communities/:slug/members', pages.communityMembers),
          pageRoute('communities/new', pages.newCommunity),
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/**
 * Starts fetching the code of the page at `pathname`, so that it loads while the app starts
 * rather than after its first render. Failures are left to the page's own render, which shows
 * the route's error element.
 */
export function preloadPage(pathname: string): void {
  for (const match of matchRoutes(routes, pathname) ?? []) {
    const handle = match.route.handle as LazyPage | undefined;
    handle?.preload().catch(() => undefined);
  }
}

/** Every page's code, for tests that render pages right away. */
export async function preloadAllPages(): Promise<void> {
  await Promise.all(Object.values(pages).map((page) => page.preload()));
}
