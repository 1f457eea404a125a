import { Button, Group, Input, TextInput, type MantineSize } from '@mantine/core';
import { useId, useState, type FormEvent, type ReactNode } from 'react';

export interface SearchFormProps {
  /** Names both the search landmark and its text box. */
  label: string;
  submitLabel: string;
  /** The query the page shows now (from its address). */
  initialQuery: string;
  /** The trimmed text, when the form is sent. */
  onSearch: (query: string) => void;
  size?: MantineSize;
  /** Why the query failed, shown under the box and announced. */
  error?: ReactNode;
  /** Further controls after the button (a help popover). */
  children?: ReactNode;
}

/** A search landmark: one text box and its button. */
export function SearchForm({
  label,
  submitLabel,
  initialQuery,
  onSearch,
  size,
  error,
  children,
}: SearchFormProps) {
  const id = useId();
  const [text, setText] = useState(initialQuery);
  // The address changed under the box (Back, Forward, a link): it shows that query, while what the
  // reader is typing survives every other render.
  const [shownQuery, setShownQuery] = useState(initialQuery);
  if (initialQuery !== shownQuery) {
    setShownQuery(initialQuery);
    setText(initialQuery);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    onSearch(text.trim());
  }

  return (
    <form role="search" onSubmit={submit} aria-label={label}>
      {/* The label above the row, so that the buttons line up with the box, not its error. */}
      <Input.Label htmlFor={id} size={size}>
        {label}
      </Input.Label>
      <Group align="flex-start">
        <TextInput
          id={id}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          // On a narrow screen the buttons wrap below rather than squeeze the box.
          style={{ flex: 1, minWidth: 'min(16rem, 100%)' }}
          size={size}
          error={error}
          errorProps={{ role: 'alert' }}
        />
        <Button type="submit" variant="light" size={size}>
          {submitLabel}
        </Button>
        {children}
      </Group>
    </form>
  );
}
