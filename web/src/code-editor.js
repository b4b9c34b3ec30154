// The page's one CodeMirror 6 setup, shared by the exercise engine (JavaScript answers) and
// the Profiling model builder (JSON specs): the lab's look, Ctrl/Cmd+Enter to run, aria
// labels, the system's light or dark scheme (One Dark when dark, switched live), and the text
// saved shortly after typing stops and at once when the page is left.
// Not for: what running or saving means (the caller's onRun and onSave), or the language.

import { Compartment } from '@codemirror/state';
import { oneDark } from '@codemirror/theme-one-dark';
import { basicSetup, EditorView } from 'codemirror';

// The page follows prefers-color-scheme (style.css); the editor's colours follow it too.
const darkScheme = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
const schemeExtension = () => (darkScheme?.matches ? oneDark : []);

const theme = (minHeight) =>
  EditorView.theme({
    '&': { fontSize: '0.9rem', border: '1px solid var(--border, #dce1e8)', borderRadius: '6px', background: 'var(--bg, #fff)' },
    '&.cm-focused': { outline: '2px solid var(--accent, #2457c5)', outlineOffset: '1px' },
    '.cm-scroller': { fontFamily: 'var(--font-mono, monospace)', minHeight, maxHeight: '26rem' },
    '.cm-gutters': { borderTopLeftRadius: '6px', borderBottomLeftRadius: '6px' },
  });

/**
 * Mounts an editor in `parent`. `onSave(text)` runs `saveDelayMs` after the last change, on
 * `flush()`, and on pagehide while a save is pending. Returns {view, text(), setText(text),
 * flush(), destroy({save})}: destroy saves a pending change when `save` is true, else drops it.
 */
export function createCodeEditor({
  parent,
  doc,
  language,
  onRun,
  onSave,
  saveDelayMs,
  labelledBy,
  describedBy,
  minHeight = '9rem',
}) {
  let timer = null;
  const scheme = new Compartment();
  const text = () => view.state.doc.toString();
  const save = () => {
    clearTimeout(timer);
    timer = null;
    onSave(text());
  };
  const flush = () => {
    if (timer !== null) save();
  };
  const view = new EditorView({
    doc,
    parent,
    extensions: [
      // Before basicSetup: earlier extensions take precedence, and its keymap binds
      // Ctrl/Cmd+Enter to "insert blank line".
      EditorView.domEventHandlers({
        keydown(event) {
          if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') {
            event.preventDefault();
            onRun();
            return true;
          }
          return false;
        },
      }),
      basicSetup,
      language,
      scheme.of(schemeExtension()),
      theme(minHeight),
      EditorView.contentAttributes.of({ 'aria-labelledby': labelledBy, 'aria-describedby': describedBy }),
      EditorView.updateListener.of((update) => {
        if (!update.docChanged) return;
        clearTimeout(timer);
        timer = setTimeout(save, saveDelayMs);
      }),
    ],
  });
  window.addEventListener('pagehide', flush);
  const onScheme = () => view.dispatch({ effects: scheme.reconfigure(schemeExtension()) });
  darkScheme?.addEventListener('change', onScheme);

  return {
    view,
    text,
    flush,
    /** Replaces the text in one transaction, so Ctrl+Z brings the old text back; saves it. */
    setText(next) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: next } });
      save();
    },
    destroy({ save: keep = true } = {}) {
      window.removeEventListener('pagehide', flush);
      darkScheme?.removeEventListener('change', onScheme);
      if (keep) flush();
      else clearTimeout(timer);
      view.destroy();
    },
  };
}
