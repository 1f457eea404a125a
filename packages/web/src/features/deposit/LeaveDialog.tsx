import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LeaveGuard } from './useLeaveGuard';

/**
 * The question asked when someone follows a link away from the form with something unsaved.
 * Staying is the first button, so Enter or Escape never drop anything.
 */
export function LeaveDialog({ guard }: { guard: LeaveGuard }) {
  const { t } = useTranslation();
  const risk = guard.asking;
  return (
    <Modal
      opened={risk !== null}
      onClose={guard.stay}
      title={t(risk === 'uploads' ? 'deposit.leave.uploadsTitle' : 'deposit.leave.editsTitle')}
    >
      <Stack>
        <Text>
          {t(risk === 'uploads' ? 'deposit.leave.uploadsMessage' : 'deposit.leave.editsMessage')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={guard.stay} data-autofocus>
            {t('deposit.leave.stay')}
          </Button>
          {risk === 'edits' && (
            <Button onClick={() => void guard.saveAndLeave()}>
              {t('deposit.leave.saveAndLeave')}
            </Button>
          )}
          <Button color="red" variant="light" onClick={guard.leave}>
            {t('deposit.leave.leave')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
