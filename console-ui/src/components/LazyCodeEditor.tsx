import { lazy, Suspense, type ComponentProps } from 'react';

// CodeMirror is most of the bundle's weight; it loads only where a spec is shown.
const Editor = lazy(() => import('./CodeEditor').then((m) => ({ default: m.CodeEditor })));

export function LazyCodeEditor(props: ComponentProps<typeof Editor>) {
  return (
    <Suspense fallback={<div className="editor editor-loading muted">Loading the editor…</div>}>
      <Editor {...props} />
    </Suspense>
  );
}
