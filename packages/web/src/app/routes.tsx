import type { RouteObject } from 'react-router';
import { LoginPage } from '../features/account/LoginPage';
import { SignupPage } from '../features/account/SignupPage';
import { TokensPage } from '../features/account/TokensPage';
import { UploadsPage } from '../features/dashboard/UploadsPage';
import { DepositPage } from '../features/deposit/DepositPage';
import { RecordPage } from '../features/records/RecordPage';
import { AppLayout } from './AppLayout';
import { HomePage } from './HomePage';
import { NotFoundPage } from './NotFoundPage';
import { RequireUser } from './RequireUser';
import { RouteErrorPage } from './RouteErrorPage';

/** The app's pages (ARCHITECTURE §5); the server serves index.html for each of these paths. */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'login', element: <LoginPage /> },
      { path: 'signup', element: <SignupPage /> },
      { path: 'records/:id', element: <RecordPage /> },
      {
        element: <RequireUser />,
        children: [
          { path: 'uploads/new', element: <DepositPage /> },
          { path: 'uploads/:id', element: <DepositPage /> },
          { path: 'me/uploads', element: <UploadsPage /> },
          { path: 'account/tokens', element: <TokensPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
