import { Alert, Anchor, List, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { MouseEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldError } from '../../api/records';
import type { ActionFailure, ActionResult } from './action-state';
import { groupErrorsBySection } from './sections';

type Severity = 'positive' | 'warning' | 'negative';

const COLOR: Record<Severity, string> = { positive: 'green', warning: 'yellow', negative: 'red' };

interface Feedback {
  severity: Severity;
  text: string;
  errors: readonly FieldError[];
}

export interface DepositFeedbackProps {
  result: ActionResult | null;
  onDismiss: () => void;
}

/** The banner above the deposit form with the outcome of the last action (SPEC §8). */
export function DepositFeedback({ result, onDismiss }: DepositFeedbackProps) {
  const { t } = useTranslation();
  if (!result) return null;

  const feedback = describeFeedback(result, t);
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

  return (
    <Alert
      color={COLOR[feedback.severity]}
      variant="light"
      // A success is announced politely; problems interrupt.
      role={feedback.severity === 'positive' ? 'status' : 'alert'}
      withCloseButton
      closeButtonLabel={t('deposit.feedback.dismiss')}
      onClose={onDismiss}
    >
      {/* The warning texts end in "…feedback in", continued by the sections. */}
      <Text size="sm">
        {feedback.text}
        {feedback.severity === 'warning' && sectionList.length > 0 && <> {sectionList}</>}
      </Text>
      {feedback.severity !== 'warning' && sectionList.length > 0 && (
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

function describeFeedback(result: ActionResult, t: TFunction): Feedback {
  switch (result.type) {
    case 'saved':
      return { severity: 'positive', text: t('deposit.feedback.saved'), errors: [] };
    case 'saved-with-feedback':
      return {
        severity: 'warning',
        text: t('deposit.feedback.savedWithFeedback'),
        errors: result.errors,
      };
    case 'loaded-with-feedback':
      return {
        severity: 'warning',
        text: t('deposit.feedback.loadedWithFeedback'),
        errors: result.errors,
      };
    // SPEC §8 gives this state no severity: it is validation feedback, styled like the others.
    case 'publish-blocked':
      return {
        severity: 'warning',
        text: t('deposit.feedback.publishBlocked'),
        errors: result.errors,
      };
    case 'save-failed':
      return describeFailure(result.failure, t('deposit.feedback.saveFailed'));
    case 'publish-failed':
      return describeFailure(result.failure, t('deposit.feedback.publishFailed'));
    case 'conflict':
      return { severity: 'negative', text: t('deposit.feedback.conflict'), errors: [] };
  }
}

/**
 * A server message or a schema-level error (`_schema`) replaces the default text (SPEC §8);
 * field errors do not: they are shown on their fields instead.
 */
function describeFailure(failure: ActionFailure, defaultText: string): Feedback {
  const schemaError = failure.errors.find((error) => error.field === '_schema');
  let text = defaultText;
  if (schemaError) text = schemaError.messages.join(' ');
  else if (failure.errors.length === 0 && failure.serverMessage) text = failure.serverMessage;
  return { severity: 'negative', text, errors: failure.errors };
}

/**
 * Moves to the section without changing the address: a hash navigation would make the router
 * render the page anew and drop the form's unsaved input.
 */
function jumpToSection(event: MouseEvent<HTMLAnchorElement>, sectionId: string): void {
  event.preventDefault();
  const section = document.getElementById(sectionId);
  if (!section) return;
  section.scrollIntoView({ behavior: 'smooth', block: 'start' });
  const firstInvalid = section.querySelector<HTMLElement>('[aria-invalid="true"]');
  (firstInvalid ?? section).focus({ preventScroll: true });
}
