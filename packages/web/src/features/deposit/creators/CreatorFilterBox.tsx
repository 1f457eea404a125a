/**
 * The creators list's filter box. Separate from the list (CreatorsList.tsx) because it is the one
 * part that re-renders on each keystroke, and how it hands the text on is what keeps typing fluid
 * over a long list.
 */
import { TextInput } from '@mantine/core';
import { startTransition, useEffect, useRef, useState } from 'react';
import { afterNextPaint } from '../../../lib/idle';

/**
 * The filter's text box. It owns what is typed, so a keystroke repaints the box alone. The list
 * is filtered once that keystroke is on screen (a frame that also had to wait for the filtering
 * of 10,000 names would come late), in a transition React may interrupt for the next keystroke;
 * keystrokes that come before it starts are filtered for together.
 */
export function FilterBox({
  label,
  placeholder,
  onFilterChange,
}: {
  label: string;
  placeholder: string;
  onFilterChange: (filter: string) => void;
}) {
  const [text, setText] = useState('');
  const pending = useRef<(() => void) | null>(null);
  useEffect(() => () => pending.current?.(), []);
  return (
    <TextInput
      style={{ flex: 1 }}
      type="search"
      label={label}
      placeholder={placeholder}
      value={text}
      onChange={(event) => {
        const value = event.currentTarget.value;
        setText(value);
        pending.current?.();
        pending.current = afterNextPaint(() => {
          pending.current = null;
          startTransition(() => onFilterChange(value));
        });
      }}
      autoComplete="off"
    />
  );
}
