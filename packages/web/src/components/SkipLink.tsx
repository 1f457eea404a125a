import { Anchor } from '@mantine/core';
import { useState, type CSSProperties, type ReactNode } from 'react';

const HIDDEN: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
};

const SHOWN: CSSProperties = {
  position: 'absolute',
  top: 8,
  left: 8,
  zIndex: 1000,
  padding: '8px 12px',
  background: 'var(--mantine-color-body)',
  border: '2px solid currentColor',
};

export interface SkipLinkProps {
  targetId: string;
  children: ReactNode;
}

/** The first stop for keyboard users: jumps past the header to `targetId`; visible on focus. */
export function SkipLink({ targetId, children }: SkipLinkProps) {
  const [isFocused, setIsFocused] = useState(false);
  return (
    <Anchor
      href={`#${targetId}`}
      style={isFocused ? SHOWN : HIDDEN}
      onFocus={() => setIsFocused(true)}
      onBlur={() => setIsFocused(false)}
      onClick={(event) => {
        // Focus moves without a hash navigation, which the router would treat as a new page.
        event.preventDefault();
        document.getElementById(targetId)?.focus();
      }}
    >
      {children}
    </Anchor>
  );
}
