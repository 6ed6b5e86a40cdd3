import { FileButton, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { RichTextEditor } from '@mantine/tiptap';
import { IconPhoto } from '@tabler/icons-react';
import Image from '@tiptap/extension-image';
import { useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../i18n/error-text.ts';
import { shownPicture, withShownPictures, withStoredPictures } from './notice-pictures.ts';
import { uploadNoticePicture } from './notices.queries.ts';

const pictures = (files: FileList | undefined | null) =>
  [...(files ?? [])].filter((file) => file.type.startsWith('image/'));

/**
 * The letter body (TipTap through Mantine's editor): pictures pasted, dropped or inserted are uploaded
 * first and put in by their address, never kept inline as data.
 */
export function NoticeBodyEditor({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (html: string) => void;
  error?: string;
}) {
  const { t } = useTranslation();

  const insert = async (editor: Editor, files: File[]) => {
    for (const file of files) {
      try {
        // The editor shows a local copy; the stored body gets the picture's address (onUpdate).
        editor
          .chain()
          .focus()
          .setImage({ src: await shownPicture(await uploadNoticePicture(file)), alt: file.name })
          .run();
      } catch (failure) {
        notifications.show({
          color: 'red',
          message: t('notices.form.pictureFailed', { message: errorText(failure, t) }),
        });
      }
    }
  };

  const editor = useEditor({
    extensions: [StarterKit, Image],
    content: value,
    immediatelyRender: true,
    onUpdate: ({ editor: changed }) => void withStoredPictures(changed.getHTML()).then(onChange),
    onCreate: ({ editor: created }) => {
      // A notice being edited shows its pictures from local copies too.
      void withShownPictures(value).then((html) => {
        if (html !== value) created.commands.setContent(html, { emitUpdate: false });
      });
    },
    editorProps: {
      handlePaste: (_view, event) => {
        const files = pictures(event.clipboardData?.files);
        if (files.length === 0 || !editor) return false;
        void insert(editor, files);
        return true;
      },
      handleDrop: (_view, event) => {
        const files = pictures(event.dataTransfer?.files);
        if (files.length === 0 || !editor) return false;
        void insert(editor, files);
        return true;
      },
    },
  });

  return (
    <RichTextEditor
      editor={editor}
      data-testid="notice-body-editor"
      style={error ? { borderColor: 'var(--mantine-color-error)' } : undefined}
    >
      <RichTextEditor.Toolbar>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Bold />
          <RichTextEditor.Italic />
          <RichTextEditor.Underline />
          <RichTextEditor.Strikethrough />
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
          <FileButton
            accept="image/png,image/jpeg,image/gif,image/webp"
            onChange={(file) => file && editor && void insert(editor, [file])}
          >
            {(props) => (
              <Tooltip label={t('notices.form.insertPicture')}>
                <RichTextEditor.Control
                  {...props}
                  aria-label={t('notices.form.insertPicture')}
                  data-testid="notice-insert-picture"
                >
                  <IconPhoto size={16} />
                </RichTextEditor.Control>
              </Tooltip>
            )}
          </FileButton>
        </RichTextEditor.ControlsGroup>
      </RichTextEditor.Toolbar>
      <RichTextEditor.Content mih={200} />
    </RichTextEditor>
  );
}
