import { Box, Button, Group, Stack, Text } from '@mantine/core';
import {
  lazy,
  startTransition,
  Suspense,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ChangeEvent,
  type RefObject,
} from 'react';
import { whenIdle } from '../../../lib/idle';
import { canPickHandles, droppedFiles, pickFiles, pickFolder } from './file-access';

/**
 * The uploader's drop area. Mantine's dropzone brings react-dropzone and file-selector's table of
 * media types (about 12 KB gzipped, a thirtieth of the deposit page's scripts), which nobody needs
 * before the form is usable: it loads when the browser is first idle after the form is shown.
 * Until then the same area takes dropped files (not folders) and its buttons open the file and folder dialogs
 * through a file input of its own (kept whichever area shows), so a person who is quicker than the library loses nothing, and a
 * file dropped then is not opened by the browser in place of the form.
 */

const FileDropzone = lazy(() =>
  import('./FileDropzone').then((module) => ({ default: module.FileDropzone })),
);

/** The latest the dropzone waits for the browser to be idle. */
const IDLE_TIMEOUT_MS = 1000;

export interface FileDropAreaProps {
  onFiles: (files: File[]) => void;
  /** No more files fit (quota reached): nothing is taken. */
  disabled: boolean;
  labels: {
    title: string;
    hint: string;
    choose: string;
    chooseFolder: string;
    input: string;
    folderInput: string;
  };
}

/**
 * What each of the two areas takes: the props, how to open the file input kept for both, and
 * whether the button of the area being replaced had the focus (which its successor then takes).
 */
export type DropAreaProps = FileDropAreaProps & ChooseProps;

interface ChooseProps {
  onChoose: () => void;
  /** Opens the folder dialog: every file inside is chosen, keyed by its path in the folder. */
  onChooseFolder: () => void;
  chooseFocused: RefObject<boolean>;
}

export function FileDropArea({ onFiles: takeFiles, ...rest }: FileDropAreaProps) {
  const { labels } = rest;
  /** The files of the drop under way, read through their handles where the browser has them. */
  const dropping = useRef<Promise<File[]> | undefined>(undefined);
  const onFiles = (files: File[]) => {
    const withHandles = dropping.current;
    dropping.current = undefined;
    if (!withHandles) return takeFiles(files);
    withHandles.then(
      (read) => takeFiles(read.length > 0 ? read : files),
      () => takeFiles(files),
    );
  };
  const props = { ...rest, onFiles };
  const [isWanted, setIsWanted] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const folderRef = useRef<HTMLInputElement>(null);
  const chooseFocused = useRef(false);
  useEffect(() => {
    if (isWanted) return undefined;
    return whenIdle(() => startTransition(() => setIsWanted(true)), IDLE_TIMEOUT_MS);
  }, [isWanted]);
  // Chromium's pickers give handles, kept so that an interrupted upload resumes with one click;
  // a picker the page may not open (a frame, a policy) leaves the file input to do it.
  const pick = (picker: () => Promise<File[]>, input: () => void) => {
    if (!canPickHandles()) return input();
    picker().then((files) => {
      if (files.length > 0) takeFiles(files);
    }, input);
  };
  const choose = () => pick(pickFiles, () => inputRef.current?.click());
  const chooseFolder = () => pick(pickFolder, () => folderRef.current?.click());
  const choosing = { onChoose: choose, onChooseFolder: chooseFolder, chooseFocused };
  const taken = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.currentTarget.files ?? [])];
    event.currentTarget.value = '';
    if (files.length > 0) onFiles(files);
  };
  const plain = <PlainDropArea {...props} {...choosing} />;
  return (
    <>
      {/* One file input for the button, whichever area shows: the area changing while the file
          dialog is open cannot lose the choice. */}
      <input
        ref={inputRef}
        type="file"
        multiple
        hidden
        aria-label={labels.input}
        onChange={taken}
      />
      {/* `webkitdirectory` (every browser has it) is not among React's attributes. */}
      <input
        ref={(input) => {
          folderRef.current = input;
          input?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        hidden
        aria-label={labels.folderInput}
        onChange={taken}
      />
      {/* Handles of dropped items exist only while the drop event runs: asked for first. */}
      <div
        onDropCapture={(event) => {
          if (!props.disabled) dropping.current = droppedFiles(event.dataTransfer);
        }}
      >
        {isWanted ? (
          <Suspense fallback={plain}>
            <FileDropzone {...props} {...choosing} />
          </Suspense>
        ) : (
          plain
        )}
      </div>
    </>
  );
}

/** The area's text and its button, the same in both. */
export function DropAreaContent({
  labels,
  disabled,
  onChoose,
  onChooseFolder,
  chooseFocused,
}: Pick<FileDropAreaProps, 'labels' | 'disabled'> & ChooseProps) {
  const buttonRef = useRef<HTMLButtonElement>(null);
  // A person may have tabbed to the button just as the dropzone replaces the plain area: the new
  // button takes the focus the old one had, so the next key (Enter) is not lost. An unmounting
  // area's layout cleanup runs before its button leaves the page, the new one's effect after.
  useLayoutEffect(() => {
    const button = buttonRef.current;
    if (chooseFocused.current) button?.focus();
    return () => {
      chooseFocused.current = button !== null && document.activeElement === button;
    };
  }, [chooseFocused]);
  return (
    <Stack align="center" gap="xs" py="md">
      <Text fw={600}>{labels.title}</Text>
      <Text size="sm" c="dimmed">
        {labels.hint}
      </Text>
      <Group gap="xs" justify="center">
        <Button ref={buttonRef} variant="default" disabled={disabled} onClick={onChoose}>
          {labels.choose}
        </Button>
        <Button variant="default" disabled={disabled} onClick={onChooseFolder}>
          {labels.chooseFolder}
        </Button>
      </Group>
    </Stack>
  );
}

/** The area before the dropzone is there, drawn as the dropzone draws itself. */
function PlainDropArea({
  onFiles,
  disabled,
  labels,
  onChoose,
  onChooseFolder,
  chooseFocused,
}: DropAreaProps) {
  return (
    <Box
      style={{
        border: '1px dashed var(--mantine-color-gray-4)',
        borderRadius: 'var(--mantine-radius-sm)',
        padding: 'var(--mantine-spacing-md)',
      }}
      onDragOver={(event) => event.preventDefault()}
      onDrop={(event) => {
        event.preventDefault();
        if (!disabled) onFiles([...event.dataTransfer.files]);
      }}
    >
      <DropAreaContent
        labels={labels}
        disabled={disabled}
        onChoose={onChoose}
        onChooseFolder={onChooseFolder}
        chooseFocused={chooseFocused}
      />
    </Box>
  );
}
