import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { lazyDialog } from './lazy-dialog';

interface Props {
  opened: boolean;
  text: string;
}

function RealDialog({ opened, text }: Props) {
  return <p>{opened ? `open: ${text}` : `closed: ${text}`}</p>;
}

/** A dialog whose code arrives when the test says so, and a count of the fetches. */
function deferredDialog() {
  const fetch = { count: 0, arrive: () => undefined as void };
  const Dialog = lazyDialog<Props>(
    () => {
      fetch.count += 1;
      return new Promise((resolve) => {
        fetch.arrive = () => resolve(RealDialog);
      });
    },
    (props) => props.opened,
  );
  return { Dialog, fetch };
}

describe('lazyDialog', () => {
  it('fetches nothing and shows nothing until first opened', () => {
    const { Dialog, fetch } = deferredDialog();
    render(<Dialog opened={false} text="a" />);
    expect(fetch.count).toBe(0);
    expect(screen.queryByText(/a$/)).toBeNull();
  });

  it('shows the dialog once its code has arrived, and keeps it mounted after closing', async () => {
    const { Dialog, fetch } = deferredDialog();
    const { rerender } = render(<Dialog opened={false} text="a" />);

    rerender(<Dialog opened text="a" />);
    expect(fetch.count).toBe(1);
    act(() => fetch.arrive());
    expect(await screen.findByText('open: a')).toBeTruthy();

    rerender(<Dialog opened={false} text="b" />);
    expect(screen.getByText('closed: b')).toBeTruthy();
    expect(fetch.count).toBe(1);
  });

  it('fetches again when opened after a failed prefetch', async () => {
    let attempts = 0;
    const Dialog = lazyDialog<Props>(
      () => {
        attempts += 1;
        return attempts === 1 ? Promise.reject(new Error('offline')) : Promise.resolve(RealDialog);
      },
      (props) => props.opened,
    );
    await expect(Dialog.preload()).rejects.toThrow('offline');

    render(<Dialog opened text="d" />);
    expect(await screen.findByText('open: d')).toBeTruthy();
    expect(attempts).toBe(2);
  });

  it('opens at once when preloaded', async () => {
    const { Dialog, fetch } = deferredDialog();
    const preloaded = Dialog.preload();
    fetch.arrive();
    await preloaded;

    render(<Dialog opened text="c" />);
    expect(screen.getByText('open: c')).toBeTruthy();
    expect(fetch.count).toBe(1);
  });

  it('hands the focus back to the button that first opened it', async () => {
    function FocusingDialog({ opened }: Props) {
      return opened ? <input aria-label="Inside" autoFocus /> : null;
    }
    const Dialog = lazyDialog<Props>(
      () => Promise.resolve(FocusingDialog),
      (props) => props.opened,
    );
    function Page({ opened }: { opened: boolean }) {
      return (
        <>
          <button type="button">Open</button>
          <Dialog opened={opened} text="" />
        </>
      );
    }
    const { rerender } = render(<Page opened={false} />);
    act(() => screen.getByRole('button', { name: 'Open' }).focus());

    rerender(<Page opened />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Inside')));
    rerender(<Page opened={false} />);
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open' })),
    );
  });
});
