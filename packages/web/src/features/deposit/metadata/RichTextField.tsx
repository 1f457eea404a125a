import { Box, Input, Stack } from '@mantine/core';
import type { DepositFormValues } from '@cairn/shared';
import {
  lazy,
  startTransition,
  Suspense,
  useEffect,
  useId,
  useRef,
  useState,
  type Ref,
} from 'react';
import { useFormContext, useFormState, useWatch } from 'react-hook-form';
import { HtmlText } from '../../../components/HtmlText';
import { whenIdle } from '../../../lib/idle';
import type { RichTextEditorFieldProps } from './RichTextEditorField';

const RichTextEditorField = lazy(() =>
  import('./RichTextEditorField').then((module) => ({ default: module.RichTextEditorField })),
);

/** The editor box's height before the editor is there, so that the page does not jump. */
const PLACEHOLDER_MIN_HEIGHT = 120;

/**
 * A rich-text field whose editor (the form's heaviest library by far) loads when the field comes
 * near the screen or is reached with the keyboard: below the fold, it does not hold up the rest
 * of the form. Until then the field shows its text, read only and unformatted (the sanitiser
 * comes with the editor); focusing or clicking it brings the editor with the caret in it.
 */
export function RichTextField(props: RichTextEditorFieldProps) {
  const [isWanted, setIsWanted] = useState(false);
  const [hasFocus, setHasFocus] = useState(false);
  const placeholderRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = placeholderRef.current;
    if (isWanted || !element) return undefined;
    let cancelIdle: (() => void) | undefined;
    const stopWatching = whenNearScreen(element, () => {
      // Mounting the editor takes tens of milliseconds: between keystrokes, not during one
      // (scrolling, or a filter above that shrinks, brings the field near).
      cancelIdle = whenIdle(() => startTransition(() => setIsWanted(true)), IDLE_TIMEOUT_MS);
    });
    return () => {
      stopWatching();
      cancelIdle?.();
    };
  }, [isWanted]);

  const placeholder = (
    <EditorPlaceholder
      {...props}
      boxRef={placeholderRef}
      onActivate={() => {
        setHasFocus(true);
        setIsWanted(true);
      }}
    />
  );
  if (!isWanted) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <RichTextEditorField {...props} autoFocus={hasFocus} />
    </Suspense>
  );
}

function EditorPlaceholder({
  name,
  label,
  required,
  help,
  boxRef,
  onActivate,
}: RichTextEditorFieldProps & { boxRef: Ref<HTMLDivElement>; onActivate: () => void }) {
  const labelId = useId();
  const helpId = useId();
  const errorId = useId();
  const value: unknown = useWatch<DepositFormValues>({ name });
  // A server message must show even below the fold, before the editor has come.
  const { getFieldState } = useFormContext<DepositFormValues>();
  const message = getFieldState(name, useFormState<DepositFormValues>({ name })).error?.message;
  const error = typeof message === 'string' ? message : undefined;
  const describedBy = [help ? helpId : '', error ? errorId : ''].join(' ').trim();
  return (
    <Stack gap={4}>
      <Input.Label id={labelId} required={required}>
        {label}
      </Input.Label>
      {help && <Input.Description id={helpId}>{help}</Input.Description>}
      <Box
        ref={boxRef}
        role="textbox"
        aria-multiline="true"
        aria-labelledby={labelId}
        aria-describedby={describedBy || undefined}
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        aria-busy="true"
        tabIndex={0}
        onFocus={onActivate}
        onPointerDown={onActivate}
        mih={PLACEHOLDER_MIN_HEIGHT}
        p="sm"
        bd="1px solid var(--mantine-color-default-border)"
        style={{ borderRadius: 'var(--mantine-radius-sm)' }}
      >
        {typeof value === 'string' && value !== '' && <HtmlText html={value} />}
      </Box>
      {error && <Input.Error id={errorId}>{error}</Input.Error>}
    </Stack>
  );
}

/** Even on a page that never idles, the editor comes within this time of nearing the screen. */
const IDLE_TIMEOUT_MS = 1000;

/** How far below (or above) the screen the editor starts loading, so it is there when seen. */
const NEAR_SCREEN_MARGIN = '400px';

/**
 * Calls `callback` once `element` comes within NEAR_SCREEN_MARGIN of the screen (at once where
 * the browser cannot tell); returns a function that stops watching.
 */
function whenNearScreen(element: Element, callback: () => void): () => void {
  if (typeof IntersectionObserver !== 'function') {
    const timer = setTimeout(callback, 0);
    return () => clearTimeout(timer);
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      callback();
    },
    { rootMargin: NEAR_SCREEN_MARGIN },
  );
  observer.observe(element);
  return () => observer.disconnect();
}
