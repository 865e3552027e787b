import { lazy, Suspense, type ComponentProps } from 'react';

// CodeMirror is most of the bundle's weight; it loads only where a spec is shown.
const Editor = lazy(() => import('./YamlEditor').then((m) => ({ default: m.YamlEditor })));

export function LazyYamlEditor(props: ComponentProps<typeof Editor>) {
  return (
    <Suspense fallback={<div className="editor editor-loading muted">Loading the editor…</div>}>
      <Editor {...props} />
    </Suspense>
  );
}
