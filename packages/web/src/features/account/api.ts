import { useMutation } from '@tanstack/react-query';
import { useApiClient } from '../../api/useApiClient';

export interface LoginRequest {
  email: string;
  password: string;
}

export interface SignupRequest extends LoginRequest {
  name: string;
}

/*
 * Both calls set the session cookie. Their bodies are not read: the page then loads afresh so
 * the server renders the bootstrap with the signed-in user.
 */

export function useLogin() {
  const client = useApiClient();
  return useMutation({
    mutationFn: async (request: LoginRequest) => {
      await client.post('/api/auth/login', request);
    },
  });
}

export function useSignup() {
  const client = useApiClient();
  return useMutation({
    mutationFn: async (request: SignupRequest) => {
      await client.post('/api/auth/signup', request);
    },
  });
}
