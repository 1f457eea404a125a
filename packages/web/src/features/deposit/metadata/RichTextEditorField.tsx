import '@mantine/tiptap/styles.css';
import { Input, Stack } from '@mantine/core';
import { RichTextEditor } from '@mantine/tiptap';
import type { DepositFormValues } from '@cairn/shared';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useId, useRef } from 'react';
import { useController, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toDescriptionHtml } from './description-html';

export interface RichTextEditorFieldProps {
  name: FieldPath<DepositFormValues>;
  label: string;
  required?: boolean;
  help?: string;
  /** Put the caret in the editor once it is ready (it replaces a placeholder that had focus). */
  autoFocus?: boolean;
}

/**
 * A rich-text description bound by `name`. The stored value is the editor's HTML reduced to the
 * tags the server keeps (DESCRIPTION_HTML_TAGS), so what is saved is what the landing page shows;
 * an empty editor stores `''`. Loaded lazily: the editor is the form's heaviest library.
 */
export function RichTextEditorField({
  name,
  label,
  required,
  help,
  autoFocus = false,
}: RichTextEditorFieldProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const helpId = useId();
  const errorId = useId();
  const {
    field: { value, onChange, onBlur },
    fieldState,
  } = useController<DepositFormValues>({ name });
  const html = typeof value === 'string' ? value : '';
  // The last value the editor wrote: anything else arriving is a reset to show in the editor.
  const emitted = useRef(html);
  const error = fieldState.error?.message;
  const describedBy = [help ? helpId : '', error ? errorId : ''].join(' ').trim();

  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3, 4] },
        link: { openOnClick: false, protocols: ['http', 'https', 'mailto'] },
      }),
    ],
    content: html,
    autofocus: autoFocus ? 'end' : false,
    shouldRerenderOnTransaction: false,
    onUpdate: ({ editor: current }) => {
      const next = current.isEmpty ? '' : toDescriptionHtml(current.getHTML());
      emitted.current = next;
      onChange(next);
    },
    onBlur: () => onBlur(),
  });

  useEffect(() => {
    if (!editor || html === emitted.current) return;
    emitted.current = html;
    editor.commands.setContent(html, { emitUpdate: false });
  }, [editor, html]);

  // The editable element is ProseMirror's, not React's: its name and state are set here.
  useEffect(() => {
    editor?.setOptions({
      editorProps: {
        attributes: {
          role: 'textbox',
          'aria-multiline': 'true',
          'aria-labelledby': labelId,
          ...(describedBy ? { 'aria-describedby': describedBy } : {}),
          ...(error ? { 'aria-invalid': 'true' } : {}),
          ...(required ? { 'aria-required': 'true' } : {}),
        },
      },
    });
  }, [editor, labelId, describedBy, error, required]);

  const labels = {
    boldControlLabel: t('metadata.editor.bold'),
    italicControlLabel: t('metadata.editor.italic'),
    underlineControlLabel: t('metadata.editor.underline'),
    strikeControlLabel: t('metadata.editor.strike'),
    h2ControlLabel: t('metadata.editor.heading', { level: 2 }),
    h3ControlLabel: t('metadata.editor.heading', { level: 3 }),
    bulletListControlLabel: t('metadata.editor.bulletList'),
    orderedListControlLabel: t('metadata.editor.orderedList'),
    blockquoteControlLabel: t('metadata.editor.blockquote'),
    codeControlLabel: t('metadata.editor.code'),
    linkControlLabel: t('metadata.editor.link'),
    unlinkControlLabel: t('metadata.editor.unlink'),
    linkEditorInputLabel: t('metadata.editor.linkUrl'),
    linkEditorInputPlaceholder: 'https://example.org/',
    linkEditorExternalLink: t('metadata.editor.linkNewTab'),
    linkEditorInternalLink: t('metadata.editor.linkSameTab'),
    linkEditorSave: t('metadata.editor.linkSave'),
    undoControlLabel: t('metadata.editor.undo'),
    redoControlLabel: t('metadata.editor.redo'),
  };

  return (
    <Stack gap={4}>
      <Input.Label id={labelId} required={required} onClick={() => editor?.commands.focus()}>
        {label}
      </Input.Label>
      {help && <Input.Description id={helpId}>{help}</Input.Description>}
      <RichTextEditor editor={editor} labels={labels}>
        <RichTextEditor.Toolbar>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.Underline />
            <RichTextEditor.Strikethrough />
            <RichTextEditor.Code />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.H2 />
            <RichTextEditor.H3 />
            <RichTextEditor.BulletList />
            <RichTextEditor.OrderedList />
            <RichTextEditor.Blockquote />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Link />
            <RichTextEditor.Unlink />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Undo />
            <RichTextEditor.Redo />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content />
      </RichTextEditor>
      {error && <Input.Error id={errorId}>{error}</Input.Error>}
    </Stack>
  );
}
