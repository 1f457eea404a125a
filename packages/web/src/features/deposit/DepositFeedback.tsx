import { Alert, Anchor, List, Text } from '@mantine/core';
import type { MouseEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActionOutcome } from './action-state';
import { FEEDBACK_BANNER_ID } from './ActionStatus';
import { describeFeedback, type Feedback } from './feedback';
import { groupErrorsBySection } from './sections';

const COLOR: Record<Feedback['tone'], string> = {
  info: 'blue',
  positive: 'green',
  warning: 'yellow',
  negative: 'red',
};

export interface DepositFeedbackProps {
  outcome: ActionOutcome | null;
  onDismiss: () => void;
}

/**
 * The banner above the deposit form with the outcome of the last action: its text, links to the
 * sections holding feedback with their counts, and the messages of fields no section shows.
 */
export function DepositFeedback({ outcome, onDismiss }: DepositFeedbackProps) {
  const { t } = useTranslation();
  const feedback = describeFeedback(outcome);
  if (!feedback) return null;

  const { sections, unplaced } = groupErrorsBySection(feedback.errors);
  const unplacedMessages = unplaced.filter((error) => error.field !== '_schema');
  const sectionItems: ReactNode[] = sections.map(({ section, count }) => (
    <Anchor
      key={section.id}
      href={`#${section.id}`}
      onClick={(event) => jumpToSection(event, section.id)}
    >
      {t('deposit.feedback.sectionErrorCount', { section: t(section.labelKey), count })}
    </Anchor>
  ));
  if (unplacedMessages.length > 0) {
    sectionItems.push(
      t('deposit.feedback.sectionErrorCount', {
        section: t('deposit.sections.other'),
        count: unplacedMessages.length,
      }),
    );
  }
  const sectionList = sectionItems.map((item, index) => (
    <span key={index}>
      {index > 0 && ', '}
      {item}
    </span>
  ));
  const isCalm = feedback.tone === 'info' || feedback.tone === 'positive';

  return (
    <Alert
      color={COLOR[feedback.tone]}
      variant="light"
      // A success is announced politely; problems interrupt.
      role={isCalm ? 'status' : 'alert'}
      data-tone={feedback.tone}
      // "Show message" beside the buttons brings the banner into view and moves focus to it.
      id={FEEDBACK_BANNER_ID}
      tabIndex={-1}
      withCloseButton
      closeButtonLabel={t('deposit.feedback.dismiss')}
      onClose={onDismiss}
    >
      {/* The validation texts end in "…feedback in", continued by the sections. */}
      <Text size="sm">
        {feedback.text ?? t(`deposit.feedback.${feedback.textKey}`)}
        {feedback.listsSections && sectionList.length > 0 && <> {sectionList}</>}
      </Text>
      {!feedback.listsSections && sectionList.length > 0 && (
        <Text size="sm" mt="xs">
          {t('deposit.feedback.sectionLinks')}: {sectionList}
        </Text>
      )}
      {unplacedMessages.length > 0 && (
        <List size="sm" mt="xs">
          {unplacedMessages.map((error) => (
            <List.Item key={error.field}>
              <code>{error.field}</code>: {error.messages.join(' ')}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

/**
 * Moves to the section's first field with an error, or to the section when none shows one,
 * without changing the address: a hash navigation would make the router render the page anew
 * and drop the form's unsaved input. The field is brought to the middle of the screen so that
 * its message, under it, is seen too, and focused without opening it (lists do not open on
 * focus, see SelectField).
 */
function jumpToSection(event: MouseEvent<HTMLAnchorElement>, sectionId: string): void {
  event.preventDefault();
  const section = document.getElementById(sectionId);
  if (!section) return;
  const firstInvalid = section.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (firstInvalid) {
    firstInvalid.scrollIntoView({ behavior: 'smooth', block: 'center' });
    firstInvalid.focus({ preventScroll: true });
    return;
  }
  section.scrollIntoView({ behavior: 'smooth', block: 'start' });
  section.focus({ preventScroll: true });
}
