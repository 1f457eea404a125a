import type { DeleteKind } from '@cairn/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionButton } from './ActionButton';
import { DeleteConfirmModal } from './dialogs';
import type { ActionState } from './action-state';

// All red: InvenioRDM's orange for "Discard changes" is below WCAG AA contrast (4.3:1) both as
// text on white and under white text, and the wording already tells the three apart.
const WORDING: Record<DeleteKind, { label: string; question: string; color: string }> = {
  delete: {
    label: 'deposit.delete.delete',
    question: 'deposit.delete.deleteQuestion',
    color: 'red',
  },
  'discard-version': {
    label: 'deposit.delete.discardVersion',
    question: 'deposit.delete.discardVersionQuestion',
    color: 'red',
  },
  'discard-changes': {
    label: 'deposit.delete.discardChanges',
    question: 'deposit.delete.discardChangesQuestion',
    color: 'red',
  },
};

export interface DeleteButtonProps {
  kind: DeleteKind;
  /** Before the first save there is nothing to delete. */
  disabled: boolean;
  actionState: ActionState;
  onConfirm: () => void;
}

/**
 * Delete (a first draft), discard version (a later version) or discard changes (a draft of a
 * published record), each confirmed with its own "Are you sure…".
 */
export function DeleteButton({ kind, disabled, actionState, onConfirm }: DeleteButtonProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const wording = WORDING[kind];
  const label = t(wording.label as 'deposit.delete.delete');
  return (
    <>
      <ActionButton
        action="delete"
        actionState={actionState}
        color={wording.color}
        variant="outline"
        disabled={disabled}
        onClick={() => setOpened(true)}
        fullWidth
      >
        {label}
      </ActionButton>
      <DeleteConfirmModal
        opened={opened}
        onClose={() => setOpened(false)}
        onConfirm={onConfirm}
        label={label}
        question={t(wording.question as 'deposit.delete.deleteQuestion')}
        color={wording.color}
      />
    </>
  );
}
