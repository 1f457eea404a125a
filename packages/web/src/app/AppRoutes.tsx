import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation, useRoutes, type Location } from 'react-router';
import { RouteErrorPage } from './RouteErrorPage';
import { routes } from './routes';

interface BoundaryProps {
  location: Location;
  children: ReactNode;
}

interface BoundaryState {
  error: unknown;
  /** Where the error happened: another address clears it. */
  location: Location;
}

/**
 * Catches what a page throws while rendering, a page chunk that failed to load included, and
 * shows RouteErrorPage instead of the app; going to another address tries again.
 */
export class RouteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, location: this.props.location };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: error ?? new Error('A page threw nothing.') };
  }

  static getDerivedStateFromProps(
    props: BoundaryProps,
    state: BoundaryState,
  ): Partial<BoundaryState> | null {
    return props.location === state.location ? null : { error: null, location: props.location };
  }

  override componentDidCatch(_error: unknown, _info: ErrorInfo): void {
    // Logged by RouteErrorPage, once.
  }

  override render() {
    return this.state.error ? <RouteErrorPage error={this.state.error} /> : this.props.children;
  }
}

/** The app's pages at the current address, inside the boundary that shows RouteErrorPage. */
export function AppRoutes() {
  const location = useLocation();
  const element = useRoutes(routes);
  return <RouteErrorBoundary location={location}>{element}</RouteErrorBoundary>;
}
