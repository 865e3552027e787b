import { useEffect, useRef } from 'react';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { sql, StandardSQL } from '@codemirror/lang-sql';
import { yaml } from '@codemirror/lang-yaml';
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { EditorState } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';

export type EditorDiagnostic = Pick<Diagnostic, 'from' | 'to' | 'message' | 'severity'>;

/** What the editor highlights: a job spec (YAML) or a SQL job. */
export type EditorLanguage = 'yaml' | 'sql';

/**
 * A CodeMirror 6 editor of a job spec (YAML) or a SQL job. `initialValue` is read once (remount
 * with a `key` to replace the text); `diagnostics` are drawn at their ranges and in the gutter;
 * `jumpTo` moves the cursor.
 */
export function CodeEditor({
  initialValue,
  onChange,
  diagnostics,
  jumpTo,
  readOnly = false,
  label,
  language = 'yaml',
}: {
  initialValue: string;
  onChange?: (text: string) => void;
  diagnostics?: readonly EditorDiagnostic[];
  jumpTo?: { pos: number; seq: number } | null;
  readOnly?: boolean;
  label: string;
  language?: EditorLanguage;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    const state = EditorState.create({
      doc: initialValue,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        highlightSelectionMatches(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        language === 'sql' ? sql({ dialect: StandardSQL }) : yaml(),
        lintGutter(),
        keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap, indentWithTab]),
        EditorState.readOnly.of(readOnly),
        EditorView.editable.of(!readOnly),
        EditorView.contentAttributes.of({ 'aria-label': label }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) onChangeRef.current?.(u.state.doc.toString());
        }),
      ],
    });
    view.current = new EditorView({ state, parent: host.current! });
    return () => {
      view.current?.destroy();
      view.current = null;
    };
    // The text is the editor's own once mounted; a new initialValue needs a remount (key).
  }, [readOnly, label, language]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const length = v.state.doc.length;
    const clipped = (diagnostics ?? [])
      .map((d) => ({ ...d, from: Math.min(d.from, length), to: Math.min(Math.max(d.to, d.from), length) }));
    v.dispatch(setDiagnostics(v.state, clipped));
  }, [diagnostics]);

  useEffect(() => {
    const v = view.current;
    if (!v || !jumpTo) return;
    const pos = Math.min(jumpTo.pos, v.state.doc.length);
    v.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: 'center' }) });
    v.focus();
  }, [jumpTo]);

  return <div className="editor" ref={host} data-testid={`${language}-editor`} />;
}
