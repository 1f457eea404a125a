import { Button, Group, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';

export interface SearchFormProps {
  /** Names both the search landmark and its text box. */
  label: string;
  submitLabel: string;
  /** The query the page shows now (from its address). */
  initialQuery: string;
  /** The trimmed text, when the form is sent. */
  onSearch: (query: string) => void;
}

/** A search landmark: one text box and its button. */
export function SearchForm({ label, submitLabel, initialQuery, onSearch }: SearchFormProps) {
  const [text, setText] = useState(initialQuery);

  function submit(event: FormEvent) {
    event.preventDefault();
    onSearch(text.trim());
  }

  return (
    <form role="search" onSubmit={submit} aria-label={label}>
      <Group align="flex-end">
        <TextInput
          label={label}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          style={{ flex: 1 }}
        />
        <Button type="submit" variant="light">
          {submitLabel}
        </Button>
      </Group>
    </form>
  );
}
