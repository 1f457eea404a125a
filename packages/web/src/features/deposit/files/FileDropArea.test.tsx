import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { FileDropArea } from './FileDropArea';
import { uploadKey } from './selection-checks';

const labels = {
  title: 'Drop files here',
  hint: 'or',
  choose: 'Choose files',
  chooseFolder: 'Choose a folder',
  input: 'Files',
  folderInput: 'Folder',
};

function renderArea(disabled = false) {
  const onFiles = vi.fn<(files: File[]) => void>();
  const { container } = render(
    <MantineProvider>
      <FileDropArea onFiles={onFiles} disabled={disabled} labels={labels} />
    </MantineProvider>,
  );
  const area = screen.getByText('Drop files here').closest('div')!.parentElement!;
  return { onFiles, area, container };
}

describe('FileDropArea', () => {
  it('takes files dropped before the dropzone library has arrived', async () => {
    const { onFiles, area, container } = renderArea();
    // Synchronously after the first render: the library is not there yet.
    expect(container.querySelector('.mantine-Dropzone-root')).toBeNull();
    const file = new File(['a,b'], 'table.csv');
    const dropped = fireEvent.drop(area, { dataTransfer: { files: [file], types: ['Files'] } });
    // The browser must not open the file in place of the form.
    expect(dropped).toBe(false);
    expect(onFiles).toHaveBeenCalledWith([file]);
    // Then the dropzone takes over, with the same text and button.
    await waitFor(() => expect(container.querySelector('.mantine-Dropzone-root')).not.toBeNull());
    expect(screen.getByRole('button', { name: 'Choose files' })).toBeTruthy();
  });

  it('keeps the focus on "Choose files" when the dropzone replaces the plain area', async () => {
    const { container } = renderArea();
    screen.getByRole('button', { name: 'Choose files' }).focus();
    await waitFor(() => expect(container.querySelector('.mantine-Dropzone-root')).not.toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Choose files' }));
  });

  it('takes nothing while no more files fit', () => {
    const { onFiles, area } = renderArea(true);
    fireEvent.drop(area, { dataTransfer: { files: [new File(['x'], 'x.txt')], types: ['Files'] } });
    expect(onFiles).not.toHaveBeenCalled();
  });

  it('chooses a folder through an input that takes folders, keeping each file’s path', () => {
    const { onFiles } = renderArea();
    const folder = screen.getByLabelText<HTMLInputElement>('Folder');
    expect(folder.hasAttribute('webkitdirectory')).toBe(true);
    const click = vi.spyOn(folder, 'click');
    fireEvent.click(screen.getByRole('button', { name: 'Choose a folder' }));
    expect(click).toHaveBeenCalled();
    const file = new File(['a,b'], 'station-1.csv');
    Object.defineProperty(file, 'webkitRelativePath', { value: 'survey/raw/station-1.csv' });
    fireEvent.change(folder, { target: { files: [file] } });
    expect(onFiles).toHaveBeenCalledWith([file]);
    expect(uploadKey(onFiles.mock.calls[0]![0][0]!)).toBe('survey/raw/station-1.csv');
  });
});
