import { Navigate, Outlet, useLocation } from 'react-router';
import { useBootstrap } from '../bootstrap';

/**
 * Pages for signed-in people. The server redirects page loads itself; this covers navigations
 * inside the app.
 */
export function RequireUser() {
  const { user } = useBootstrap();
  const { pathname, search } = useLocation();
  if (!user) {
    return <Navigate to={`/login?next=${encodeURIComponent(pathname + search)}`} replace />;
  }
  return <Outlet />;
}
