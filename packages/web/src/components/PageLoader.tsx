import { Center, Loader } from '@mantine/core';

/** A centred spinner that screen readers announce as `label`. */
export function PageLoader({ label }: { label: string }) {
  return (
    <Center py="xl" role="status" aria-label={label}>
      <Loader />
    </Center>
  );
}
