import { Anchor, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActionOutcome } from './action-state';
import { describeFeedback, type Feedback } from './feedback';

/** The id of the feedback banner, which "Show message" brings into view. */
export const FEEDBACK_BANNER_ID = 'deposit-feedback';

export interface ActionStatusProps {
  outcome: ActionOutcome | null;
}

type StatusKey = 'saved' | 'savedWithFeedback' | 'blocked' | 'failed';

/** Which short line stands for the banner's text beside the buttons. */
function statusKeyOf(feedback: Feedback): StatusKey {
  switch (feedback.textKey) {
    case 'saved':
      return 'saved';
    case 'savedWithFeedback':
      return 'savedWithFeedback';
    case 'publishBlocked':
    case 'submitReviewBlocked':
    case 'previewBlocked':
      return 'blocked';
    default:
      return 'failed';
  }
}

/**
 * The outcome of the last action, told beside the action buttons: the banner with the full text
 * sits at the top of the page, out of view of someone who pressed Save far down the form. The
 * line is a live region that is always present, so that screen readers announce each outcome
 * (a region that appears together with its text is often not read); the time makes a second save
 * a change they announce again and that the eye sees. The draft as it was opened (`load`) is not
 * an outcome of anything the person did here.
 */
export function ActionStatus({ outcome }: ActionStatusProps) {
  const { t, i18n } = useTranslation();
  // The moment each outcome arrived, kept with it (state adjusted while rendering, so the time
  // is the one of the render that first showed the outcome).
  const [stamped, setStamped] = useState<{ outcome: ActionOutcome | null; at: Date }>(() => ({
    outcome,
    at: new Date(),
  }));
  if (stamped.outcome !== outcome) setStamped({ outcome, at: new Date() });

  const feedback = outcome && outcome.action !== 'load' ? describeFeedback(outcome) : null;
  const time = stamped.at.toLocaleTimeString(i18n.language.replace('_', '-'));
  const isProblem = feedback !== null && feedback.tone !== 'info' && feedback.tone !== 'positive';
  return (
    <Text
      size="sm"
      aria-live="polite"
      aria-atomic="true"
      data-tone={feedback?.tone}
      // Yellow 9 is 3:1 on white; the theme's darkened text shade of a colour passes AA.
      c={
        isProblem
          ? feedback.tone === 'negative'
            ? 'red.8'
            : 'var(--mantine-color-yellow-light-color)'
          : 'dimmed'
      }
    >
      {feedback && (
        <>
          {t(`deposit.actionStatus.${statusKeyOf(feedback)}`, { time })}
          {isProblem && ' '}
          {isProblem && (
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => {
                const banner = document.getElementById(FEEDBACK_BANNER_ID);
                banner?.scrollIntoView({ behavior: 'smooth', block: 'start' });
                banner?.focus({ preventScroll: true });
              }}
            >
              {t('deposit.actionStatus.showMessage')}
            </Anchor>
          )}
        </>
      )}
    </Text>
  );
}
