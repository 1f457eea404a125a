import { Dropzone } from '@mantine/dropzone';
import { DropAreaContent, type DropAreaProps } from './FileDropArea';

/**
 * The drop area with Mantine's dropzone, which reads dropped folders as well as files. Its own
 * module so that the library arrives after the form (FileDropArea). Its button opens the file
 * input FileDropArea keeps, which outlives the swap from the plain area.
 */
export function FileDropzone({
  onFiles,
  disabled,
  labels,
  onChoose,
  onChooseFolder,
  chooseFocused,
}: DropAreaProps) {
  return (
    <Dropzone
      onDrop={onFiles}
      multiple
      activateOnClick={false}
      activateOnKeyboard={false}
      useFsAccessApi={false}
      enablePointerEvents
      disabled={disabled}
      inputProps={{ 'aria-label': labels.input }}
    >
      <DropAreaContent
        labels={labels}
        disabled={disabled}
        onChoose={onChoose}
        onChooseFolder={onChooseFolder}
        chooseFocused={chooseFocused}
      />
    </Dropzone>
  );
}
