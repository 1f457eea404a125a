import { Button } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyDialog } from '../../../components/lazy-dialog';
import type { ShareDialogProps } from './ShareDialog';

/** The dialog's code (and the user picker's) loads when it first opens. */
const ShareDialog = lazyDialog<ShareDialogProps>(
  () => import('./ShareDialog').then((module) => module.ShareDialog),
  (props) => props.opened,
);

/**
 * "Share" and the dialog it opens, for those who manage the record (the landing page and the
 * editor decide who that is; the server refuses anyone else). Closing hands the focus back here.
 */
export function ShareButton(props: Omit<ShareDialogProps, 'opened' | 'onClose'>) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="default"
        size="compact-sm"
        onClick={() => setOpened(true)}
        onPointerEnter={() => void ShareDialog.preload()}
        onFocus={() => void ShareDialog.preload()}
      >
        {t('share.open')}
      </Button>
      <ShareDialog {...props} opened={opened} onClose={() => setOpened(false)} />
    </>
  );
}
