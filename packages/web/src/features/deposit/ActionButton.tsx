import { Button, type ButtonProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { isRunning, isSubmitting, type ActionState, type DepositAction } from './action-state';

export interface ActionButtonProps extends Omit<ButtonProps, 'loading' | 'children'> {
  /** The action this button runs; its spinner shows while that action runs. */
  action?: DepositAction;
  /** Further actions that spin this button (publish without community spins Publish). */
  alsoSpinsFor?: DepositAction[];
  actionState: ActionState;
  onClick: () => void;
  children: ReactNode;
  type?: 'button' | 'submit';
}

/**
 * A button of the editor's action bar. Every such button names its action: the spinner and the
 * disabled state come from the action state machine, and a button without one is a programming
 * error ("The submit btn must set the form action name.", in InvenioRDM's words).
 */
export function ActionButton({
  action,
  alsoSpinsFor = [],
  actionState,
  disabled,
  onClick,
  children,
  type = 'button',
  ...buttonProps
}: ActionButtonProps) {
  if (!action) throw new Error('The submit btn must set the form action name.');
  const spinning = isRunning(actionState, action, ...alsoSpinsFor);
  return (
    <Button
      {...buttonProps}
      type={type}
      data-action={action}
      loading={spinning}
      // Every action waits for the running one; the spinning button shows which.
      disabled={Boolean(disabled) || (isSubmitting(actionState) && !spinning)}
      onClick={onClick}
    >
      {children}
    </Button>
  );
}
